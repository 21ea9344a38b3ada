/**
 * τ-bench results (sierra-research/tau-bench: `EnvRunResult` in
 * tau_bench/types.py, written by tau_bench/run.py as a JSON array, one
 * element per task and trial; JSON Lines of the same objects are read too):
 * `{"task_id": int, "reward": float, "info": {...}, "traj": [messages],
 * "trial": int}`. A run that crashed has `traj: []` and `info.error`.
 *
 * `traj` is the agent's conversation, in one of the shapes its agents
 * (tau_bench/agents/*.py) write:
 * - tool-calling and few-shot agents: `assistant` messages with
 *   `tool_calls` (`id`, `function.name`; the agent keeps only the first)
 *   answered by `tool` messages with `tool_call_id`;
 * - ReAct and Act agents (chat_react_agent.py): an `assistant` message whose
 *   text ends in `Action:\n{"name": ..., "arguments": ...}`; an action other
 *   than `respond` is a tool call, answered by the next `user` message,
 *   which the agent prefixes with `API output: `. These calls have no id in
 *   the source: `traj-<i>` (the assistant message's index) stands for it.
 * The text after `Action:` that is not JSON is what the agent itself turns
 * into a `respond` action, so it is no tool call here either.
 *
 * Tool call ids are reused by some providers once the earlier call with the
 * id was answered, so calls pair with results in order (first unanswered
 * call with that id), which is unambiguous. τ-bench's environment
 * (tau_bench/envs/base.py, `Env.step`) answers `Error: {e}` exactly when a
 * tool raised, and `Unknown action {name}` when the name is no tool: those
 * results are `tool_error` and `not_found`; any other answer is a success.
 *
 * A result is one record, used whole or quarantined whole with the entry
 * (`traj[i]`) that makes it unreadable: never half of it in the figures.
 * Each result is a session, its outcome from the reward: passed when
 * 1 - 1e-6 <= reward <= 1 + 1e-6 (τ-bench's REWARD_SUCCESS_MIN/MAX), and an
 * `expectation` `reward` records the value. Each assistant message is a
 * model call. The format has no times (ts is null, durations are not
 * available) and no token counts.
 */
import type { FailureKind } from '../events/labels.js';
import { fileRunId, importedTool, isObject, resultBytes, str, TOKENS_NOT_RECORDED } from './common.js';
import { readSource } from './records.js';
import type { ImportContext, ImportedEvent, Importer, RecordRef, Sample } from './types.js';

const SUCCESS_MIN = 1 - 1e-6;
const SUCCESS_MAX = 1 + 1e-6;
/** tau_bench/types.py RESPOND_ACTION_NAME: the agent's reply to the user, not a tool. */
const RESPOND = 'respond';
/** Prefixes τ-bench's own code writes (envs/base.py, agents/chat_react_agent.py). */
const ERROR_PREFIX = 'Error: ';
const UNKNOWN_ACTION = 'Unknown action ';
const API_OUTPUT = 'API output: ';

export const NO_TOOL_SHAPE = 'a trajectory with assistant messages in no shape that carries tool calls (neither tool_calls nor a ReAct "Action:" JSON): its tool figures are not available';

const isResult = (v: unknown): v is Record<string, unknown> => isObject(v) && 'task_id' in v && 'reward' in v && 'traj' in v;

function detect(sample: Sample): boolean {
  if (sample.lines.some((l) => isResult(l) || (Array.isArray(l) && l.some(isResult)))) return true;
  return sample.lines[0] === undefined && /^\s*\[/.test(sample.text) && /"task_id"\s*:/.test(sample.text) && /"traj"\s*:/.test(sample.text);
}

/** The action a ReAct/Act message names (the JSON after its last `Action:`), or null when the agent would read it as a reply. */
export function reactAction(content: unknown): { name: string } | null {
  if (typeof content !== 'string' || !content.includes('Action:')) return null;
  try {
    const parsed = JSON.parse(content.split('Action:').at(-1)?.trim() ?? '') as unknown;
    return isObject(parsed) && typeof parsed.name === 'string' && parsed.name.length > 0 && 'arguments' in parsed ? { name: parsed.name } : null;
  } catch {
    return null;
  }
}

/** How τ-bench's environment answered a call (see the header): a failure kind, or null for a success. */
export function answerKind(text: unknown): FailureKind | null {
  if (typeof text !== 'string') return null;
  if (text.startsWith(ERROR_PREFIX)) return 'tool_error';
  if (text.startsWith(UNKNOWN_ACTION)) return 'not_found';
  return null;
}

class Problem extends Error {}

interface Call {
  id: string;
  tool: string;
  turn: number;
}

/** One result -> its session's events, or a Problem naming the entry that makes it unreadable. */
function sessionEvents(value: Record<string, unknown>, path: string): { events: ImportedEvent[]; calls: number; assistants: number; shape: string } {
  const { task_id: task, reward, traj, trial } = value;
  if ((typeof task !== 'number' && typeof task !== 'string') || typeof reward !== 'number' || !Array.isArray(traj)) {
    throw new Problem('tau-bench result: task_id must be a number or string, reward a number and traj an array');
  }
  const trialNo = typeof trial === 'number' && Number.isInteger(trial) && trial >= 0 ? trial : null;
  const taskId = String(task);
  const scope = { run_id: fileRunId('tau-bench', path), session_id: `task-${taskId}${trialNo === null ? '' : `-trial-${trialNo}`}`, task_id: taskId };
  const events: ImportedEvent[] = [];
  const push = (e: Record<string, unknown>) => events.push({ ...scope, ts: null, ...e } as ImportedEvent);
  push({ event: 'session_start', scenario: null, repeat: trialNo, defenses_armed: null, tools: null, deferred_tools: null, permission_mode: null, headless: null });
  let turn = 0;
  let calls = 0;
  // Unanswered calls by id, oldest first: an id may come back once its call was answered.
  const pending = new Map<string, Call[]>();
  let reactCall: Call | null = null;
  let reactCalls = 0;
  const answer = (call: Call, content: unknown) => {
    const kind = answerKind(content);
    const result = { turn: call.turn, tool: call.tool, tool_use_id: call.id, duration_ms: null };
    if (kind !== null) return push({ ...result, event: 'tool_failure', failure_kind: kind, error_code: null });
    const bytes = resultBytes(content);
    push({ ...result, event: 'tool_success', output_bytes: bytes, raw_bytes: null, empty: bytes === null ? null : bytes === 0, truncated: null, spilled: null });
  };
  const callEvent = (call: Call, name: string) => {
    calls++;
    const label = importedTool(name);
    push({ event: 'tool_call', turn: call.turn, tool: call.tool, tool_use_id: call.id, requested_tool: label.requested_tool, batch: null, concurrency_safe: null, source: null });
  };
  for (const [i, message] of traj.entries()) {
    if (!isObject(message)) throw new Problem(`traj[${i}] is not a message object`);
    if (reactCall && message.role === 'user' && typeof message.content === 'string' && message.content.startsWith(API_OUTPUT)) {
      answer(reactCall, message.content.slice(API_OUTPUT.length));
      reactCall = null;
      continue;
    }
    if (message.role === 'assistant') {
      const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      const react = toolCalls.length === 0 ? reactAction(message.content) : null;
      const isReactCall = react !== null && react.name !== RESPOND;
      turn++;
      push({ event: 'model_request', turn, provider: null, model: null, stream: null, messages_count: i, tools_count: null, tools_bytes: null, request_bytes: null, prefix_hash: null });
      push({ event: 'model_response', turn, duration_ms: null, ttft_ms: null, stop_reason: null, stop_class: null, tool_use_count: toolCalls.length + (isReactCall ? 1 : 0), ...TOKENS_NOT_RECORDED });
      for (const [j, c] of toolCalls.entries()) {
        const id = isObject(c) ? str(c.id) : null;
        const name = isObject(c) && isObject(c.function) ? str(c.function.name) : null;
        if (id === null || name === null) throw new Problem(`traj[${i}].tool_calls[${j}]: a tool call without an id or a function name`);
        const call = { id, tool: importedTool(name).tool, turn };
        pending.set(id, [...(pending.get(id) ?? []), call]);
        callEvent(call, name);
      }
      if (isReactCall && react) {
        reactCall = { id: `traj-${i}`, tool: importedTool(react.name).tool, turn };
        reactCalls++;
        callEvent(reactCall, react.name);
      }
    } else if (message.role === 'tool') {
      const id = str(message.tool_call_id);
      const queue = id === null ? undefined : pending.get(id);
      const call = queue?.shift();
      if (id === null || !call) throw new Problem(`traj[${i}]: tool message for ${id === null ? 'no tool_call_id' : `tool call ${id.slice(0, 64)}, which no earlier assistant message left unanswered`}`);
      if (queue?.length === 0) pending.delete(id);
      answer(call, message.content);
    }
  }
  const info = isObject(value.info) ? value.info : {};
  const crashed = traj.length === 0 && 'error' in info;
  const passed = reward >= SUCCESS_MIN && reward <= SUCCESS_MAX;
  push({ event: 'expectation', id: 'reward', ok: passed, detail: `reward ${reward} (passed when within 1e-6 of 1)` });
  push({ event: 'session_end', outcome: crashed ? 'error' : passed ? 'passed' : 'failed', stop: null, turns: turn, ...TOKENS_NOT_RECORDED, duration_ms: null });
  const shape = reactCalls > 0 ? 'result (ReAct/Act: Action: JSON)' : calls > 0 ? 'result (tool_calls)' : 'result (no tool calls)';
  return { events, calls, assistants: turn, shape };
}

function result(value: unknown, ref: RecordRef, path: string, ctx: ImportContext): void {
  if (!isResult(value)) return ctx.quarantine(ref, 'not a tau-bench result (needs task_id, reward and traj)');
  let built: ReturnType<typeof sessionEvents>;
  try {
    built = sessionEvents(value, path);
  } catch (error) {
    if (error instanceof Problem) return ctx.quarantine(ref, error.message);
    throw error;
  }
  // A conversation with model calls but no call in any shape read here: say so, rather than show 0 tool calls as a fact.
  if (built.calls === 0 && built.assistants > 0) ctx.warn(NO_TOOL_SHAPE);
  ref.kind = built.shape;
  for (const event of built.events) ctx.emit(event, ref);
}

export const tauBench: Importer = {
  name: 'tau-bench',
  title: 'τ-bench results (EnvRunResult: task_id, reward, traj of OpenAI chat messages, trial), a JSON array or JSON Lines',
  unit: 'result',
  extensions: ['.json', '.jsonl'],
  detect,
  notes: [
    'no timestamps, durations or token counts: every time and latency figure is not available in source',
    'no stop reasons, providers or models; a tool failure is known only as τ-bench\'s environment writes it ("Error: " = tool_error, "Unknown action" = not_found)',
  ],
  async importFile(path, ctx) {
    await readSource(path, ctx, () => ['$.*'], (value, line) => result(value, ctx.record(line), path, ctx));
  },
};
