/**
 * τ²-bench results (sierra-research/tau2-bench: `Results` and
 * `SimulationRun` in src/tau2/data_model/simulation.py, messages in
 * data_model/message.py), in both of its storage formats:
 * - "json": one `results.json` document `{timestamp, info, tasks,
 *   simulations: [SimulationRun]}`;
 * - "dir": `results.json` holds the metadata (`info`, `tasks`,
 *   `simulation_index`) and each simulation is `simulations/<id>.json` next
 *   to it. As τ²-bench's own `Results._detect_format`, a results.json with a
 *   `simulations/` directory beside it is the dir format: importing it reads
 *   those files (and a directory import does not read them again); a
 *   simulation file named alone is read on its own.
 *
 * A simulation is one record and one session: `id`, `task_id`, `trial`,
 * `start_time`/`end_time`/`duration` (seconds), `termination_reason`,
 * `reward_info.reward`, `messages`: `assistant` messages (a model call each,
 * with `usage` {prompt_tokens, completion_tokens, cached_tokens?},
 * `generation_time_seconds`, `timestamp`) whose `tool_calls` (`id`, `name`,
 * `requestor`) are answered by `tool` messages (`id`, `error`: the tool
 * raised) or by a `MultiToolMessage` (`tool_messages`). Tool calls whose
 * requestor is the simulated user (telecom domain) are the user's, not the
 * agent's harness, and are left out. Calls pair with results by id in order.
 *
 * Times are τ²-bench's `datetime.now().isoformat()`: local wall-clock time
 * without a zone, read here as UTC (dates may be off by the producer's UTC
 * offset; durations are exact). A tool's duration is from the message
 * before its result to the result (duration_source `timestamps`).
 * Full-duplex (voice) simulations keep `ticks` instead of messages: skipped
 * whole, with that reason. A simulation with an entry that cannot be read is
 * quarantined whole, naming the entry.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { count, importedTool, isObject, resultBytes, str, REQUEST_NOT_RECORDED } from './common.js';
import { readJsonDocument, readSource } from './records.js';
import { readSample } from './sample.js';
import type { ImportContext, ImportedEvent, Importer, RecordRef, Sample } from './types.js';

type Json = Record<string, unknown>;

const SIMULATIONS_DIR = 'simulations';
const SUCCESS_MIN = 1 - 1e-6;
const SUCCESS_MAX = 1 + 1e-6;
/** TerminationReason values that end a simulation in an error, not a judged attempt (NON_EVALUABLE_TERMINATION_REASONS and the error ones). */
const ERROR_ENDS = new Set(['infrastructure_error', 'context_window_exceeded', 'agent_error', 'user_error', 'unexpected_error']);
const STOPS: Readonly<Record<string, 'max_turns' | 'context_window_exceeded'>> = { max_steps: 'max_turns', context_window_exceeded: 'context_window_exceeded' };

export const isSimulation = (v: unknown): v is Json => isObject(v) && typeof v.id === 'string' && 'task_id' in v && 'termination_reason' in v;

function detect(sample: Sample): boolean {
  const first = sample.lines[0];
  if (isObject(first) && ((Array.isArray(first.simulations) && isObject(first.info)) || isSimulation(first))) return true;
  if (first !== undefined) return false;
  const t = sample.text;
  const results = /"git_commit"\s*:/.test(t) && /"agent_info"\s*:/.test(t) && /"environment_info"\s*:/.test(t);
  const simulation = /^\s*\{\s*"id"\s*:/.test(t) && /"termination_reason"\s*:/.test(t) && /"start_time"\s*:/.test(t);
  return results || simulation;
}

/** τ²-bench's zone-less ISO time as epoch ms (read as UTC), or null. */
export function tau2Time(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const zoned = /(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? ms : null;
}

const seconds = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v * 1000 : null);

interface Meta {
  runId: string;
  model: string | null;
}

/** The run a results.json (or a simulation file's results.json) stands for: its directory's name, and the agent's model from `info`. */
function metaFor(resultsPath: string, info: unknown): Meta {
  const agent = isObject(info) && isObject(info.agent_info) ? info.agent_info : null;
  return { runId: `tau2-bench:${basename(dirname(resultsPath)) || 'results'}`.slice(0, 128), model: str(agent?.llm)?.slice(0, 128) ?? null };
}

class Problem extends Error {}

/** The orchestrator's DEFAULT_FIRST_AGENT_MESSAGE (src/tau2/orchestrator): written without a model call, so with no usage, raw_data or tool calls. */
const isGreeting = (m: Json) => (m.usage === null || m.usage === undefined) && (m.raw_data === null || m.raw_data === undefined) && !(Array.isArray(m.tool_calls) && m.tool_calls.length > 0);

interface Call {
  id: string;
  tool: string;
  turn: number;
}

/** One simulation -> its session's events, or a Problem naming the entry that makes it unreadable. */
export function simulationEvents(sim: Json, meta: Meta): ImportedEvent[] {
  const messages = sim.messages;
  if (!Array.isArray(messages)) throw new Problem('simulation without a messages array');
  const taskId = String(sim.task_id).slice(0, 128);
  const trial = typeof sim.trial === 'number' && Number.isInteger(sim.trial) && sim.trial >= 0 ? sim.trial : null;
  const scope = { run_id: meta.runId, session_id: String(sim.id).slice(0, 128), task_id: taskId };
  const events: ImportedEvent[] = [];
  const push = (e: Json) => events.push({ ...scope, ...e } as ImportedEvent);
  const start = tau2Time(sim.start_time);
  const end = tau2Time(sim.end_time);
  push({ event: 'session_start', ts: start, scenario: null, repeat: trial, defenses_armed: null, tools: null, deferred_tools: null, permission_mode: null, headless: null });
  const pending = new Map<string, Call[]>();
  const totals = { input: 0, output: 0, read: 0, known: true, cacheKnown: true };
  let turn = 0;
  let previousTs: number | null = start;
  const answer = (m: Json, where: string) => {
    if (m.requestor === 'user') return; // the simulated user's own tool: not the agent's
    const id = str(m.id);
    const queue = id === null ? undefined : pending.get(id);
    const call = queue?.shift();
    if (id === null || !call) throw new Problem(`${where}: tool message for ${id === null ? 'no id' : `tool call ${id.slice(0, 64)}, which no earlier assistant message left unanswered`}`);
    if (queue?.length === 0) pending.delete(id);
    const ts = tau2Time(m.timestamp);
    const result = { ts, turn: call.turn, tool: call.tool, tool_use_id: id, duration_ms: previousTs !== null && ts !== null && ts >= previousTs ? ts - previousTs : null, duration_source: 'timestamps' };
    previousTs = ts ?? previousTs;
    if (m.error === true) return push({ ...result, event: 'tool_failure', failure_kind: 'tool_error', error_code: null });
    const bytes = resultBytes(m.content);
    push({ ...result, event: 'tool_success', output_bytes: bytes, raw_bytes: null, empty: bytes === null ? null : bytes === 0, truncated: null, spilled: null });
  };
  for (const [i, m] of messages.entries()) {
    const where = `messages[${i}]`;
    if (!isObject(m)) throw new Problem(`${where} is not a message object`);
    const ts = tau2Time(m.timestamp);
    if (m.role === 'assistant' && i === 0 && isGreeting(m)) {
      previousTs = ts ?? previousTs; // the orchestrator's scripted greeting: no model call
    } else if (m.role === 'assistant') {
      turn++;
      const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).filter((c) => !(isObject(c) && c.requestor === 'user'));
      const u = isObject(m.usage) ? m.usage : null;
      const prompt = count(u?.prompt_tokens);
      const cached = count(u?.cached_tokens);
      // litellm's prompt_tokens include the cached ones; the contract keeps them apart.
      const tokens = { input_tokens: prompt === null ? null : Math.max(0, prompt - (cached ?? 0)), output_tokens: count(u?.completion_tokens), cache_read_tokens: cached, cache_write_tokens: null };
      if (tokens.input_tokens === null || tokens.output_tokens === null) totals.known = false;
      else {
        totals.input += tokens.input_tokens;
        totals.output += tokens.output_tokens;
      }
      if (cached === null) totals.cacheKnown = false;
      else totals.read += cached;
      const duration = seconds(m.generation_time_seconds);
      push({ event: 'model_request', ts: ts !== null && duration !== null ? ts - duration : null, turn, provider: null, model: meta.model, ...REQUEST_NOT_RECORDED, messages_count: i });
      push({ event: 'model_response', ts, turn, duration_ms: duration, ttft_ms: null, stop_reason: null, stop_class: null, tool_use_count: calls.length, ...tokens });
      for (const [j, c] of calls.entries()) {
        const id = isObject(c) ? str(c.id) : null;
        const name = isObject(c) ? str(c.name) : null;
        if (id === null || name === null) throw new Problem(`${where}.tool_calls[${j}]: a tool call without an id or a name`);
        const label = importedTool(name);
        const call = { id, tool: label.tool, turn };
        pending.set(id, [...(pending.get(id) ?? []), call]);
        push({ event: 'tool_call', ts, turn, tool: label.tool, tool_use_id: id, requested_tool: label.requested_tool, batch: j, concurrency_safe: null, source: null });
      }
      previousTs = ts ?? previousTs;
    } else if (m.role === 'tool' && Array.isArray(m.tool_messages)) {
      for (const [j, t] of m.tool_messages.entries()) {
        if (!isObject(t)) throw new Problem(`${where}.tool_messages[${j}] is not a message object`);
        answer(t, `${where}.tool_messages[${j}]`);
      }
    } else if (m.role === 'tool') answer(m, where);
    else previousTs = ts ?? previousTs;
  }
  const reason = str(sim.termination_reason);
  const reward = isObject(sim.reward_info) && typeof sim.reward_info.reward === 'number' ? sim.reward_info.reward : null;
  if (reward !== null) push({ event: 'expectation', ts: end, id: 'reward', ok: reward >= SUCCESS_MIN && reward <= SUCCESS_MAX, detail: `reward ${reward} (passed when within 1e-6 of 1)` });
  const outcome = reason !== null && ERROR_ENDS.has(reason) ? 'error' : reward === null ? null : reward >= SUCCESS_MIN && reward <= SUCCESS_MAX ? 'passed' : 'failed';
  push({
    event: 'session_end',
    ts: end,
    outcome,
    stop: reason === null ? null : (STOPS[reason] ?? null),
    turns: turn,
    input_tokens: totals.known && turn > 0 ? totals.input : null,
    output_tokens: totals.known && turn > 0 ? totals.output : null,
    cache_read_tokens: totals.cacheKnown && turn > 0 ? totals.read : null,
    cache_write_tokens: null,
    duration_ms: seconds(sim.duration),
  });
  return events;
}

function simulation(value: unknown, ref: RecordRef, meta: Meta, ctx: ImportContext): void {
  if (!isSimulation(value)) return ctx.quarantine(ref, 'not a tau2-bench simulation (needs id, task_id and termination_reason)');
  if (!Array.isArray(value.messages) && Array.isArray(value.ticks)) return ctx.skip(ref, 'full-duplex (voice) simulation: ticks, no messages');
  let events: ImportedEvent[];
  try {
    events = simulationEvents(value, meta);
  } catch (error) {
    if (error instanceof Problem) return ctx.quarantine(ref, error.message);
    throw error;
  }
  ref.kind = 'simulation (half duplex: messages)';
  for (const e of events) ctx.emit(e, ref);
}

/** The simulation files of a dir-format results.json (sorted, as τ²-bench loads them), or [] for the json format. */
function simulationFiles(resultsPath: string): string[] {
  const dir = join(dirname(resultsPath), SIMULATIONS_DIR);
  if (basename(resultsPath) === SIMULATIONS_DIR || !existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
}

/** A simulation file's results.json (one directory up), when there is one. */
function resultsOf(simPath: string): string | null {
  const dir = dirname(simPath);
  const results = join(dirname(dir), 'results.json');
  return basename(dir) === SIMULATIONS_DIR && existsSync(results) ? results : null;
}

function readInfo(resultsPath: string): unknown {
  try {
    const doc = JSON.parse(readFileSync(resultsPath, 'utf8')) as unknown;
    return isObject(doc) ? doc.info : undefined;
  } catch {
    return undefined;
  }
}

const isSimulationText = (text: string) => /^\s*\{\s*"id"\s*:/.test(text) && /"termination_reason"\s*:/.test(text);

async function importResults(path: string, ctx: ImportContext): Promise<void> {
  const sample = readSample(path);
  if (sample.lines[0] === undefined && isSimulationText(sample.text)) {
    // A simulation file on its own: one record, read whole (it is one session's size).
    const results = resultsOf(path);
    const meta = metaFor(results ?? path, results ? readInfo(results) : undefined);
    await readJsonDocument(path, ctx, { paths: ['$'] }, (value, line) => simulation(value, ctx.record(line), meta, ctx));
    return;
  }
  let meta = metaFor(path, undefined);
  let index: unknown[] | null = null;
  await readSource(path, ctx, () => ['$.info', '$.simulation_index', '$.simulations.*'], (value, line, keys) => {
    if (keys.length === 0) {
      // JSON Lines or a one-line document: a whole Results object, or a simulation.
      if (isObject(value) && Array.isArray(value.simulations)) {
        meta = metaFor(path, value.info);
        if (Array.isArray(value.simulation_index)) index = value.simulation_index;
        for (const s of value.simulations) simulation(s, ctx.record(line), meta, ctx);
      } else {
        const results = resultsOf(path);
        simulation(value, ctx.record(line), metaFor(results ?? path, results ? readInfo(results) : undefined), ctx);
      }
    } else if (keys.length === 1 && Array.isArray(value)) index = value;
    else if (keys.length === 1) meta = metaFor(path, value);
    else simulation(value, ctx.record(line), meta, ctx);
  });
  const files = simulationFiles(path);
  for (const file of files) await readJsonDocument(file, ctx, { paths: ['$'] }, (value, line) => simulation(value, ctx.record(line, file), meta, ctx));
  const listed = index as unknown[] | null;
  if (listed !== null && files.length > 0) {
    const onDisk = new Set(files.map((f) => basename(f, '.json')));
    const missing = listed.filter((e) => isObject(e) && typeof e.id === 'string' && !onDisk.has(e.id)).length;
    for (let i = 0; i < missing; i++) ctx.warn(`listed in simulation_index with no file in ${SIMULATIONS_DIR}/ (not read)`);
  }
}

export const tau2Bench: Importer = {
  name: 'tau2-bench',
  title: 'τ²-bench results: results.json with simulations, or results.json + simulations/<id>.json (the dir format), or one simulation file',
  unit: 'simulation',
  extensions: ['.json'],
  detect,
  notes: [
    'no stop reasons, providers, request sizes or per-tool execution times: a tool duration is between message timestamps (duration_source timestamps)',
    'times are local wall-clock without a zone, read as UTC; tool calls of the simulated user (requestor user) are not the agent\'s and are left out',
  ],
  covers: (path) => simulationFiles(path),
  importFile: importResults,
};
