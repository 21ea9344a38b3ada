/**
 * τ-bench results (sierra-research/tau-bench: `EnvRunResult` in
 * tau_bench/types.py, written by tau_bench/run.py as a JSON array, one
 * element per task and trial; JSON Lines of the same objects are read too):
 * `{"task_id": int, "reward": float, "info": {...}, "traj": [messages],
 * "trial": int}`. `traj` is the OpenAI chat conversation: `assistant`
 * messages with `tool_calls` (`id`, `function.name`), `tool` messages with
 * `tool_call_id`. A run that crashed has `traj: []` and `info.error`.
 *
 * Each result is a session, its outcome from the reward: passed when
 * 1 - 1e-6 <= reward <= 1 + 1e-6 (tau-bench's REWARD_SUCCESS_MIN/MAX), and
 * an `expectation` `reward` records the value. Each assistant message is a
 * model call; each tool call is paired with its tool message by id, never
 * by order. The format has no times (ts is null, durations are not
 * available), no token counts and no error flag on a tool message: an
 * answered call counts as a success, whatever its text says (a text match
 * would be a guess, seed §14.2).
 */
import { fileRunId, importedTool, isObject, resultBytes, str, TOKENS_NOT_RECORDED } from './common.js';
import { readSource } from './records.js';
import type { ImportContext, Importer, RecordRef, Sample } from './types.js';

const SUCCESS_MIN = 1 - 1e-6;
const SUCCESS_MAX = 1 + 1e-6;

const isResult = (v: unknown): v is Record<string, unknown> => isObject(v) && 'task_id' in v && 'reward' in v && 'traj' in v;

function detect(sample: Sample): boolean {
  if (sample.lines.some((l) => isResult(l) || (Array.isArray(l) && l.some(isResult)))) return true;
  return sample.lines[0] === undefined && /^\s*\[/.test(sample.text) && /"task_id"\s*:/.test(sample.text) && /"traj"\s*:/.test(sample.text);
}

function result(value: unknown, ref: RecordRef, path: string, ctx: ImportContext): void {
  if (!isResult(value)) return ctx.quarantine(ref, 'not a tau-bench result (needs task_id, reward and traj)');
  const { task_id: task, reward, traj, trial } = value;
  if ((typeof task !== 'number' && typeof task !== 'string') || typeof reward !== 'number' || !Array.isArray(traj)) {
    return ctx.quarantine(ref, 'tau-bench result: task_id must be a number or string, reward a number and traj an array');
  }
  const trialNo = typeof trial === 'number' && Number.isInteger(trial) && trial >= 0 ? trial : null;
  const taskId = String(task);
  const scope = { run_id: fileRunId('tau-bench', path), session_id: `task-${taskId}${trialNo === null ? '' : `-trial-${trialNo}`}`, task_id: taskId };
  ctx.emit({ ...scope, event: 'session_start', ts: null, scenario: null, repeat: trialNo, defenses_armed: null, tools: null, deferred_tools: null, permission_mode: null, headless: null }, ref);
  let turn = 0;
  const pending = new Map<string, { tool: string; turn: number }>();
  const answered = new Set<string>();
  for (const [i, message] of traj.entries()) {
    if (!isObject(message)) {
      ctx.quarantine(ref, `traj[${i}] is not a message object`);
      continue;
    }
    if (message.role === 'assistant') {
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      turn++;
      ctx.emit({ ...scope, event: 'model_request', ts: null, turn, provider: null, model: null, stream: null, messages_count: i, tools_count: null, tools_bytes: null, request_bytes: null, prefix_hash: null }, ref);
      ctx.emit({ ...scope, event: 'model_response', ts: null, turn, duration_ms: null, ttft_ms: null, stop_reason: null, stop_class: null, tool_use_count: calls.length, ...TOKENS_NOT_RECORDED }, ref);
      for (const call of calls) {
        const id = isObject(call) ? str(call.id) : null;
        const name = isObject(call) && isObject(call.function) ? str(call.function.name) : null;
        if (id === null || name === null) {
          ctx.quarantine(ref, `traj[${i}]: a tool call without an id or a function name`);
          continue;
        }
        if (pending.has(id) || answered.has(id)) {
          ctx.quarantine(ref, `traj[${i}]: tool call id ${id.slice(0, 64)} used twice`);
          continue;
        }
        const label = importedTool(name);
        pending.set(id, { tool: label.tool, turn });
        ctx.emit({ ...scope, event: 'tool_call', ts: null, turn, tool: label.tool, tool_use_id: id, requested_tool: label.requested_tool, batch: null, concurrency_safe: null, source: null }, ref);
      }
    } else if (message.role === 'tool') {
      const id = str(message.tool_call_id);
      const call = id === null ? undefined : pending.get(id);
      if (id === null || !call) {
        ctx.quarantine(ref, `traj[${i}]: tool message for ${id === null ? 'no tool_call_id' : `tool call ${id.slice(0, 64)}, which ${answered.has(id) ? 'was answered already' : 'no assistant message issued'}`}`);
        continue;
      }
      pending.delete(id);
      answered.add(id);
      const bytes = resultBytes(message.content);
      ctx.emit({ ...scope, event: 'tool_success', ts: null, turn: call.turn, tool: call.tool, tool_use_id: id, duration_ms: null, output_bytes: bytes, raw_bytes: null, empty: bytes === null ? null : bytes === 0, truncated: null, spilled: null }, ref);
    }
  }
  const info = isObject(value.info) ? value.info : {};
  const crashed = traj.length === 0 && 'error' in info;
  const passed = reward >= SUCCESS_MIN && reward <= SUCCESS_MAX;
  ctx.emit({ ...scope, event: 'expectation', ts: null, id: 'reward', ok: passed, detail: `reward ${reward} (passed when within 1e-6 of 1)` }, ref);
  ctx.emit(
    { ...scope, event: 'session_end', ts: null, outcome: crashed ? 'error' : passed ? 'passed' : 'failed', stop: null, turns: turn, ...TOKENS_NOT_RECORDED, duration_ms: null },
    ref,
  );
}

export const tauBench: Importer = {
  name: 'tau-bench',
  title: 'τ-bench results (EnvRunResult: task_id, reward, traj of OpenAI chat messages, trial), a JSON array or JSON Lines',
  unit: 'result',
  extensions: ['.json', '.jsonl'],
  detect,
  notes: [
    'no timestamps, durations or token counts: every time and latency figure is not available in source',
    'a tool message has no error flag, so an answered tool call counts as a success; the outcome comes from the reward',
  ],
  async importFile(path, ctx) {
    await readSource(path, ctx, () => ['$.*'], (value, line) => result(value, ctx.record(line), path, ctx));
  },
};
