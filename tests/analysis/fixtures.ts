/**
 * Builders for contract-valid events and small trace files, so golden tests
 * read as the scenario they describe. Every builder output passes parseLine.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir as freshDir } from '../helpers/temp-dirs.js';

type Fields = Record<string, unknown>;
let seq = 0;
const env = (event: string, f: Fields): Fields => ({ v: 1, ts: 1_700_000_000_000 + seq, seq: ++seq, run_id: 'r1', event, ...f });
const sess = (s: string) => ({ session_id: s, task_id: `task-${s}` });

export const ev = {
  sessionStart: (s: string, armed: string[] = [], f: Fields = {}) =>
    env('session_start', { ...sess(s), scenario: null, repeat: 0, defenses_armed: armed, tools: ['read', 'bash'], deferred_tools: [], permission_mode: 'default', headless: true, ...f }),
  sessionEnd: (s: string, outcome: string, f: Fields = {}) =>
    env('session_end', { ...sess(s), outcome, stop: 'end_turn', turns: 1, input_tokens: 100, output_tokens: 10, cache_read_tokens: 0, cache_write_tokens: 0, duration_ms: 1000, ...f }),
  toolCall: (s: string, tool: string, id: string, f: Fields = {}) =>
    env('tool_call', { ...sess(s), turn: 1, tool, tool_use_id: id, requested_tool: null, batch: 0, concurrency_safe: true, source: 'builtin', ...f }),
  toolSuccess: (s: string, tool: string, id: string, duration_ms: number) =>
    env('tool_success', { ...sess(s), turn: 1, tool, tool_use_id: id, duration_ms, output_bytes: 10, raw_bytes: 10, empty: false, truncated: false, spilled: false }),
  toolFailure: (s: string, tool: string, id: string, failure_kind: string, duration_ms: number) =>
    env('tool_failure', { ...sess(s), turn: 1, tool, tool_use_id: id, duration_ms, failure_kind, error_code: null }),
  permission: (s: string, tool: string, id: string, decision: string, source: string, needed_prompt: boolean) =>
    env('permission_decision', { ...sess(s), turn: 1, tool, tool_use_id: id, decision, source, needed_prompt, rule_id: null }),
  defenseTrigger: (s: string, defense: string, f: Fields = {}) => env('defense_trigger', { ...sess(s), turn: 1, defense, action: 'hint', tool: null, ...f }),
  defenseStats: (s: string, defense: string, evaluated: number, triggered: number) => env('defense_stats', { ...sess(s), defense, evaluated, triggered }),
  modelRequest: (s: string, turn = 1) =>
    env('model_request', { ...sess(s), turn, provider: 'mock', model: 'm', stream: false, messages_count: 1, tools_count: 2, tools_bytes: 100, request_bytes: 500, prefix_hash: 'h' }),
  modelResponse: (s: string, stop_class: string, f: Fields = {}) =>
    env('model_response', { ...sess(s), turn: 1, duration_ms: 100, ttft_ms: null, stop_reason: stop_class === 'null' ? null : stop_class, stop_class, tool_use_count: 0, input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 0, ...f }),
  modelError: (s: string, error_kind: string, will_retry: boolean) =>
    env('model_error', { ...sess(s), turn: 1, error_kind, status: 529, attempt: 1, will_retry, retry_after_ms: null }),
  expectation: (s: string, id: string, ok: boolean, detail: string) => env('expectation', { ...sess(s), id, ok, detail }),
};

export const line = (e: Fields): string => JSON.stringify(e);

/** Writes `name` with the given lines (joined by '\n', trailing newline unless `torn`), returns its path. */
export function writeTrace(dir: string, name: string, lines: string[], opts: { torn?: boolean } = {}): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + (opts.torn ? '' : '\n'));
  return path;
}

/** A fresh directory, removed when the test file is done (see tests/helpers/temp-dirs.ts). */
export function tempDir(): string {
  return freshDir('faultline-test-');
}
