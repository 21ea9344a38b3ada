/**
 * Stage ⑧: keep the model-side result within its tool's limit (docs/harness-rules.md#truncate-and-spill,
 * docs/harness-rules.md#truncate-and-spill). Over the limit: head 70% + tail 30%, the full text written under
 * the spill directory, and a notice that gives the omitted size, the total
 * and a path the model can `read` — the next step, not just "truncated".
 * If the spill cannot be written the preview still goes out, saying so.
 * A tool with `maxResultTokens` (MCP) is limited in estimated tokens first
 * (results/token-estimate.ts), the same head/tail split counted in tokens.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { DefenseCounter } from '../defenses/meter.js';
import { headTail } from '../results/head-tail.js';
import { DEFAULT_RESULT_LIMIT, resultLimit } from '../results/limits.js';
import { writeSpill } from '../results/spill-file.js';
import { certainlyWithin } from '../results/token-estimate.js';
import { tokenHeadTail } from '../results/token-head-tail.js';
import type { Tool } from '../tools/tool.js';
import type { PipelineCall } from './call.js';

export interface SpillDeps {
  workspace: string;
  spillDir: string | null;
  defenses?: DefenseCounter;
  label: string;
}

export interface Limited {
  content: string;
  truncated: boolean;
  spilled: boolean;
}

export async function truncateSpillStage(call: PipelineCall, tool: Tool, raw: string, deps: SpillDeps): Promise<Limited> {
  const readExempt = deps.defenses?.isArmed('spill_read_loop') ?? true;
  if (tool.name === 'read' && deps.defenses) {
    // Every read is judged; it fires where a spill would have happened AND the file read is a spill (the loop in progress).
    deps.defenses.check('spill_read_loop', call.turn, readExempt && raw.length > DEFAULT_RESULT_LIMIT && readsSpill(call.input, deps), 'block', deps.label);
  }
  if (tool.maxResultTokens !== undefined && !certainlyWithin(raw, tool.maxResultTokens)) {
    const cut = tokenHeadTail(raw, tool.maxResultTokens);
    if (cut) {
      const where = await spill(call, raw, deps);
      const media = cut.omittedMedia > 0 ? ` and ${cut.omittedMedia} image/audio block${cut.omittedMedia === 1 ? '' : 's'}` : '';
      const middle = `\n\n… [${cut.omittedChars} characters${media} omitted] …\n\n`;
      const size = `about ${cut.totalTokens} tokens, over the ${tool.maxResultTokens}-token limit for this tool: showing the first ${cut.head.length} and last ${cut.tail.length} of ${raw.length} characters`;
      const notice = where
        ? `\n\n[Output too long (${size}). The full output is saved at ${where}; read it with the read tool (offset/limit) if you need the omitted part.]`
        : `\n\n[Output too long (${size}); the full output could not be saved. Ask for less to see the rest.]`;
      return { content: cut.head + middle + cut.tail + notice, truncated: true, spilled: where !== null };
    }
  }
  const limit = resultLimit(tool, readExempt);
  if (raw.length <= limit) return { content: raw, truncated: false, spilled: false };

  const cut = headTail(raw, limit);
  const where = await spill(call, raw, deps);
  const middle = `\n\n… [${cut.omitted} characters omitted] …\n\n`;
  const notice = where
    ? `\n\n[Output too long: showing the first ${cut.head.length} and last ${cut.tail.length} of ${raw.length} characters. The full output is saved at ${where}; read it with the read tool (offset/limit) if you need the omitted part.]`
    : `\n\n[Output too long: showing the first ${cut.head.length} and last ${cut.tail.length} of ${raw.length} characters; the full output could not be saved. Narrow the command to see the rest.]`;
  return { content: cut.head + (cut.tail ? middle + cut.tail : middle) + notice, truncated: true, spilled: where !== null };
}

/** Writes the full text to the spill directory; the path as the model should give it to `read`, or null. */
async function spill(call: PipelineCall, raw: string, deps: SpillDeps): Promise<string | null> {
  if (!deps.spillDir) return null;
  try {
    return shownPath(deps.workspace, await writeSpill(deps.workspace, deps.spillDir, call.turn, call.block.id, raw));
  } catch {
    return null;
  }
}

function shownPath(workspace: string, full: string): string {
  const rel = relative(workspace, full);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : full;
}

function readsSpill(input: unknown, deps: SpillDeps): boolean {
  const file = typeof input === 'object' && input !== null ? (input as { file_path?: unknown }).file_path : undefined;
  if (typeof file !== 'string' || !deps.spillDir) return false;
  const target = resolve(deps.workspace, file);
  const dir = resolve(deps.spillDir);
  return target === dir || target.startsWith(dir + sep);
}
