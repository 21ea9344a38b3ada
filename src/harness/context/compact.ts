/**
 * Compaction of the conversation history when the prompt nears the context
 * window. Without it a long session simply dies with a context-window error
 * around its twentieth step; with a careless one, it dies sooner with a 400,
 * because every API refuses a tool_result whose tool_use is gone (and
 * OpenAI a tool call without its output).
 *
 * Two steps, oldest first, never touching the latest `keepTurns` turns (the
 * model is working on them):
 *  1. elide: an old tool result's content is replaced by a short placeholder
 *     that says what was removed (tool, size) and that the call can be run
 *     again. The block itself stays, so every tool_use keeps its tool_result
 *     and the message order is untouched — valid on every wire.
 *  2. drop: if eliding every old result is not enough, whole old turns go —
 *     an assistant message together with the user messages that answer it,
 *     so a pair is never split — and a note in the first user message says
 *     which turns were removed.
 * Each step stops as soon as enough bytes are saved.
 */
import type { Message, TextBlock, ToolResultBlock } from '../../providers/types.js';

export const ELIDED_PREFIX = '[compacted: ';
const DROPPED_PREFIX = '[Context compaction removed ';

export interface CompactionOptions {
  /** The latest turns (assistant messages and what answers them) left as they are. */
  keepTurns: number;
  /** Bytes the history must shrink by; compaction stops once it has. */
  saveBytes: number;
  /**
   * Test-only fault (harness_faults.compaction_splits_pairs): drop single old
   * messages instead of whole turns, the careless form that leaves a
   * tool_result without its tool_use.
   */
  splitPairs?: boolean;
}

export interface CompactionResult {
  messages: Message[];
  /** Tool results whose content was replaced by a placeholder. */
  elided: number;
  /** Whole turns (assistant message + its answers) removed. */
  droppedTurns: number;
  /** Bytes saved (approximate: content lengths, before wire escaping). */
  savedBytes: number;
}

/** Index of the first message of the protected tail: the `keepTurns`-th assistant message from the end. */
function protectedFrom(messages: readonly Message[], keepTurns: number): number {
  let seen = 0;
  for (let i = messages.length - 1; i > 0; i--) {
    if (messages[i]!.role === 'assistant' && ++seen === keepTurns) return i;
  }
  return keepTurns <= 0 ? messages.length : 1;
}

function placeholder(tool: string, bytes: number): string {
  return `${ELIDED_PREFIX}${bytes} bytes of ${tool} output were removed to fit the context window; call the tool again if you still need it]`;
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

export function compactHistory(input: readonly Message[], options: CompactionOptions): CompactionResult {
  const messages: Message[] = input.map((m) => ({ ...m, content: [...m.content] }) as Message);
  let saved = 0;
  let elided = 0;
  const enough = () => saved >= options.saveBytes;
  const limit = protectedFrom(messages, Math.max(0, options.keepTurns));

  // Tool names by call id, for the placeholder.
  const names = new Map<string, string>();
  for (const m of messages) if (m.role === 'assistant') for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);

  // Step 1: elide old results, oldest first (counted per message: a message dropped in step 2 is not also "elided").
  const elidedIn = new Map<number, number>();
  for (let i = 1; i < limit && !enough(); i++) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    message.content = message.content.map((block) => {
      if (enough() || block.type !== 'tool_result' || block.content.startsWith(ELIDED_PREFIX)) return block;
      const bytes = byteLength(block.content);
      const text = placeholder(names.get(block.tool_use_id) ?? 'the tool', bytes);
      const gain = bytes - byteLength(text);
      if (gain <= 0) return block;
      saved += gain;
      elided++;
      elidedIn.set(i, (elidedIn.get(i) ?? 0) + 1);
      return { ...block, content: text } satisfies ToolResultBlock;
    });
  }

  // Step 2: drop whole old turns after the first user message.
  let droppedTurns = 0;
  let cut = 1;
  while (!enough() && cut < limit) {
    // One turn: an assistant message and every message up to the next assistant one.
    let end = cut + 1;
    if (options.splitPairs !== true) while (end < limit && messages[end]!.role !== 'assistant') end++;
    if (end > limit) break;
    saved += messages.slice(cut, end).reduce((sum, m) => sum + byteLength(JSON.stringify(m.content)), 0);
    for (let i = cut; i < end; i++) elided -= elidedIn.get(i) ?? 0;
    if (messages[cut]!.role === 'assistant') droppedTurns++;
    cut = end;
  }
  if (cut > 1) {
    messages.splice(1, cut - 1);
    const first = messages[0]!;
    if (first.role === 'user') first.content = [...first.content.filter((b) => !(b.type === 'text' && b.text.startsWith(DROPPED_PREFIX))), droppedNote(droppedTurns, first)];
  }
  return { messages, elided, droppedTurns, savedBytes: saved };
}

/** The note left in the first user message: how many earlier turns are gone in all (earlier compactions included). */
function droppedNote(dropped: number, first: Message): TextBlock {
  const before = first.content.find((b): b is TextBlock => b.type === 'text' && b.text.startsWith(DROPPED_PREFIX));
  const earlier = before ? Number(/(\d+)/.exec(before.text.slice(DROPPED_PREFIX.length))?.[1] ?? 0) : 0;
  const total = earlier + dropped;
  return {
    type: 'text',
    text: `${DROPPED_PREFIX}${total} earlier turn${total === 1 ? '' : 's'} (the calls and their results) to fit the context window. Read again what you still need.]`,
  };
}
