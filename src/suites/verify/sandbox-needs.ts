/**
 * Which verify-defense scenarios need an OS sandbox, on a machine without one
 * (macOS, Windows, most containers: no working bubblewrap). Two causes, both
 * named as the environment's, never as the defense's:
 *
 *  - a run with a defense switched off whose script calls a command-running
 *    tool: with the defense off the command may be the very harm the defense
 *    prevents (`rm -rf`, a write into `.git/hooks`), so it runs only inside the
 *    sandbox and is skipped without one. A script that never calls such a tool
 *    cannot start a process, so it runs as is;
 *  - a session in which the permission chain refused a call *because* no
 *    sandbox confined it (code it cannot see, in bypass mode: the chain's
 *    `unseen_code` rule, src/harness/permissions/chain.ts): its outcome, and
 *    any loop defense the repeated refusals set off, say nothing about the
 *    defense under test.
 */
import type { LoadedTask } from '../load-suite.js';

/** Built-in tools that start a process (src/harness/tools/bash.ts is the only one). */
const COMMAND_TOOLS = new Set(['bash']);

/** Permission rules that refuse only because no OS sandbox confines the call (chain.ts answers them only when unsandboxed). */
export const SANDBOX_ONLY_RULES = new Set(['unseen_code']);

/** Every tool name the task's script can call: fixed turns and every branch of its rules. */
export function scriptedToolNames(task: LoadedTask): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'tool_use' && Array.isArray(value)) {
          for (const call of value) if (call && typeof (call as { name?: unknown }).name === 'string') names.add((call as { name: string }).name);
        }
        visit(value);
      }
    }
  };
  visit(task.script);
  return names;
}

/** Why a run with the defense off needs the sandbox, or null when its script starts no process. */
export function commandReason(task: LoadedTask, defense: string): string | null {
  const tools = [...scriptedToolNames(task)].filter((n) => COMMAND_TOOLS.has(n));
  if (tools.length === 0) return null;
  return `with ${defense} off its script calls ${tools.join(', ')}, which runs with the defense off only inside an OS sandbox`;
}

/** Why a session's outcome reflects the missing sandbox, from its permission refusals (null when none was sandbox-only). */
export function sandboxDenialReason(denials: readonly { tool: string; turn: number | null; rule: string }[]): string | null {
  const hit = denials.filter((d) => SANDBOX_ONLY_RULES.has(d.rule));
  if (hit.length === 0) return null;
  const where = hit.map((d) => `${d.tool}${d.turn !== null ? ` (turn ${d.turn})` : ''}`);
  const shown = [...new Set(where)].slice(0, 3).join(', ');
  return `without an OS sandbox the permission chain refused ${hit.length === 1 ? '1 call that runs' : `${hit.length} calls that run`} code it cannot see (${shown}${where.length > 3 ? ', …' : ''}; rule ${hit[0]!.rule}), so the scenario cannot run as written`;
}
