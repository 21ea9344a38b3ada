/**
 * OpenAI Agents SDK traces, as the SDK exports them
 * (openai-agents-python src/agents/tracing: `Trace.export()`,
 * `Span.export()`, span_data.py): one JSON object per line from a tracing
 * processor that writes them, or the `{"data": [...]}` batch its backend
 * exporter sends, or a JSON array of them.
 * - `{"object": "trace", "id", "workflow_name", "group_id", "metadata"}`;
 * - `{"object": "trace.span", "id", "trace_id", "parent_id", "started_at",
 *   "ended_at" (ISO 8601), "span_data": {"type", ...}, "error": {message, data} | null}`.
 * span_data types used: `function` (a tool call: `name`, `mcp_data`),
 * `generation` (`model`, `usage`) and `response` (`usage`) (a model call),
 * `guardrail` (`name`, `triggered`), `mcp_tools` (`server`, `result`: the
 * server's tool names), `agent` (`tools`), and the JS SDK's `custom` spans
 * with `data.sdk_span_type` `task` (the run's usage) and `turn` (each turn's
 * usage: the JS SDK's response spans carry only `response_id`, so a call's
 * tokens are its turn's when the turn made one call). Others (`handoff`,
 * other `custom`, `speech`, ...) are counted as skipped.
 *
 * A trace is a session. Span start and end are taken by the SDK around the
 * work itself, so a function span's duration is that call's own (measured).
 * The export has no tool call id (the span id stands for it), no stop
 * reason, no provider and no session outcome: those stay null. A guardrail
 * becomes the `external_guardrail` defense under its own name: each guardrail
 * span is an evaluation, a triggered one also a trigger (its tripwire stops
 * the run).
 */
import { fileRunId, importedTool, isObject, isoMs, str, REQUEST_NOT_RECORDED } from './common.js';
import { readSource } from './records.js';
import { SpillGroups } from './spill-groups.js';
import type { ImportContext, Importer, RecordRef, Sample } from './types.js';

type Json = Record<string, unknown>;

interface Item {
  kind: 'trace' | 'span';
  id: string;
  parent: string | null;
  start: number | null;
  end: number | null;
  data: Json;
  error: boolean;
  ref: RecordRef;
}

const USED_SPANS = new Set(['function', 'generation', 'response', 'guardrail', 'mcp_tools', 'agent']);
/** The JS SDK exports its run and turn spans as `custom` spans named by `data.sdk_span_type` (agents-core tracing/spans.ts serializeSpanData), with the run's and each turn's usage. */
const SDK_CUSTOM = new Set(['task', 'turn']);
const MCP_SERVER = /^[A-Za-z0-9_-]{1,64}$/;

const isItem = (v: unknown): v is Json => isObject(v) && (v.object === 'trace' || v.object === 'trace.span');

function detect(sample: Sample): boolean {
  const items = sample.lines.flatMap((l) => (isObject(l) && Array.isArray(l.data) ? l.data : Array.isArray(l) ? l : [l]));
  if (items.some(isItem)) return true;
  return sample.lines[0] === undefined && /"object"\s*:\s*"trace(\.span)?"/.test(sample.text) && /"span_data"|"workflow_name"/.test(sample.text);
}

class Reader {
  readonly groups = new SpillGroups<Item>();
  constructor(private readonly ctx: ImportContext) {}

  value(value: unknown, line: number): void {
    // A whole batch on one line ({"data": [...]}) is one record per item.
    if (isObject(value) && Array.isArray(value.data) && value.object === undefined) {
      for (const item of value.data) this.item(item, this.ctx.record(line));
      return;
    }
    this.item(value, this.ctx.record(line));
  }

  item(value: unknown, ref: RecordRef): void {
    if (!isItem(value)) return this.ctx.quarantine(ref, 'not an Agents SDK trace or span export (no "object": "trace" | "trace.span")');
    ref.kind = value.object === 'trace' ? 'trace' : `${isObject(value.span_data) ? String(value.span_data.type) : '?'} span`;
    if (value.object === 'trace') {
      const id = str(value.id);
      if (id === null) return this.ctx.quarantine(ref, 'trace without an id');
      return this.groups.add(id, { kind: 'trace', id, parent: null, start: null, end: null, data: { workflow_name: value.workflow_name, group_id: value.group_id }, error: false, ref });
    }
    const id = str(value.id);
    const trace = str(value.trace_id);
    const data = isObject(value.span_data) ? value.span_data : null;
    if (id === null || trace === null) return this.ctx.quarantine(ref, 'span without an id or a trace_id');
    if (data === null || typeof data.type !== 'string') return this.ctx.quarantine(ref, `span ${id.slice(0, 40)}: no span_data.type`);
    const start = isoMs(value.started_at);
    const end = isoMs(value.ended_at);
    if (start === null) return this.ctx.quarantine(ref, `span ${id.slice(0, 40)}: started_at is not an ISO 8601 time`);
    const custom = data.type === 'custom' && isObject(data.data) && typeof data.data.sdk_span_type === 'string' && SDK_CUSTOM.has(data.data.sdk_span_type) ? data.data : null;
    if (custom && !isObject(custom.usage)) return this.ctx.skip(ref, `${String(custom.sdk_span_type)} span without usage (no contract event)`);
    if (custom) {
      this.groups.add(trace, { kind: 'span', id, parent: str(value.parent_id), start, end, data: { type: custom.sdk_span_type, usage: custom.usage, turn: custom.turn }, error: isObject(value.error), ref });
      return;
    }
    if (!USED_SPANS.has(data.type)) return this.ctx.skip(ref, `${data.type} span (no contract event)`);
    // Only what the mapping reads is kept (inputs and outputs can be large).
    const kept: Json = { type: data.type, name: data.name, model: data.model, usage: data.usage, triggered: data.triggered, server: data.server, result: data.result, tools: data.tools, mcp: data.mcp_data !== undefined && data.mcp_data !== null };
    this.groups.add(trace, { kind: 'span', id, parent: str(value.parent_id), start, end, data: kept, error: isObject(value.error), ref });
  }
}

function tokens(usage: unknown) {
  const u = isObject(usage) ? usage : null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
  const input = n(u?.input_tokens);
  const details = isObject(u?.input_tokens_details) ? u.input_tokens_details : null;
  // Python's response usage: input_tokens_details.cached_tokens; JS's task/turn usage: cached_input_tokens, cache_write_input_tokens.
  const cached = n(details?.cached_tokens) ?? n(u?.cached_input_tokens);
  const written = n(u?.cache_write_input_tokens);
  // OpenAI counts cached tokens inside input_tokens; the contract keeps them apart.
  const uncached = input === null ? null : input - (cached ?? 0) - (written ?? 0);
  return {
    input_tokens: uncached !== null && uncached >= 0 ? uncached : null,
    output_tokens: n(u?.output_tokens),
    cache_read_tokens: cached,
    cache_write_tokens: written,
  };
}

function traceEvents(traceId: string, items: Item[], path: string, ctx: ImportContext): void {
  const traces = items.filter((i) => i.kind === 'trace');
  const spans = items.filter((i) => i.kind === 'span').sort((a, b) => (a.start as number) - (b.start as number));
  for (const extra of traces.slice(1)) ctx.skip(extra.ref, 'trace exported twice');
  if (spans.length === 0) {
    for (const t of traces.slice(0, 1)) ctx.skip(t.ref, 'trace with no spans');
    return;
  }
  const trace = traces[0];
  const scope = { run_id: fileRunId('openai-agents', path), session_id: traceId, task_id: str(trace?.data.workflow_name)?.slice(0, 128) ?? traceId };
  const first = spans[0] as Item;
  const startMs = first.start as number;
  const endMs = Math.max(...spans.map((s) => s.end ?? s.start ?? 0));
  const sessionRef = trace?.ref ?? first.ref;
  const mcpTools = new Set<string>();
  for (const s of spans) if (s.data.type === 'mcp_tools' && Array.isArray(s.data.result)) for (const name of s.data.result) if (typeof name === 'string') mcpTools.add(name);
  const agentTools = spans.filter((s) => s.data.type === 'agent' && Array.isArray(s.data.tools)).flatMap((s) => (s.data.tools as unknown[]).filter((t): t is string => typeof t === 'string'));
  const guardrails = spans.filter((s) => s.data.type === 'guardrail');
  // A model call's usage: its own (Python's generation/response spans), else its turn span's when that turn made exactly one call.
  const byId = new Map(spans.map((s) => [s.id, s]));
  const turnOf = (s: Item): Item | null => {
    for (let p = s.parent === null ? undefined : byId.get(s.parent), hops = 0; p && hops < 64; p = p.parent === null ? undefined : byId.get(p.parent), hops++) if (p.data.type === 'turn') return p;
    return null;
  };
  const callsPerTurn = new Map<Item, number>();
  for (const s of spans) if (s.data.type === 'generation' || s.data.type === 'response') {
    const t = turnOf(s);
    if (t) callsPerTurn.set(t, (callsPerTurn.get(t) ?? 0) + 1);
  }
  const usageOf = (s: Item): unknown => {
    if (s.data.usage !== undefined && s.data.usage !== null) return s.data.usage;
    const t = turnOf(s);
    return t && callsPerTurn.get(t) === 1 ? t.data.usage : undefined;
  };
  const task = spans.find((s) => s.data.type === 'task' && isObject(s.data.usage));
  ctx.emit(
    {
      ...scope,
      event: 'session_start',
      ts: startMs,
      scenario: null,
      repeat: null,
      defenses_armed: guardrails.length > 0 ? ['external_guardrail'] : null,
      tools: agentTools.length > 0 ? [...new Set(agentTools.map((t) => importedTool(t).tool))] : null,
      deferred_tools: null,
      permission_mode: null,
      headless: null,
    },
    sessionRef,
  );
  let turns = 0;
  const usages: ReturnType<typeof tokens>[] = [];
  const stats = new Map<string, { evaluated: number; triggered: number; ref: RecordRef; ts: number }>();
  for (const s of spans) {
    const type = s.data.type;
    const duration = s.end === null ? null : s.end - (s.start as number);
    if (type === 'generation' || type === 'response') {
      turns++;
      ctx.emit({ ...scope, event: 'model_request', ts: s.start, turn: turns, provider: null, model: str(s.data.model)?.slice(0, 128) ?? null, ...REQUEST_NOT_RECORDED }, s.ref);
      if (s.error) ctx.emit({ ...scope, event: 'model_error', ts: s.end, turn: turns, error_kind: 'unknown', status: null, attempt: null, will_retry: null, retry_after_ms: null }, s.ref);
      else {
        const t = tokens(usageOf(s));
        usages.push(t);
        ctx.emit({ ...scope, event: 'model_response', ts: s.end, turn: turns, duration_ms: duration, ttft_ms: null, stop_reason: null, stop_class: null, tool_use_count: null, ...t }, s.ref);
      }
    } else if (type === 'function') {
      const name = str(s.data.name);
      if (name === null) {
        ctx.quarantine(s.ref, 'function span without a name');
        continue;
      }
      const { tool, requested_tool } = importedTool(name);
      const call = { ...scope, turn: turns, tool, tool_use_id: s.id };
      ctx.emit({ ...call, event: 'tool_call', ts: s.start, requested_tool, batch: null, concurrency_safe: null, source: s.data.mcp === true || mcpTools.has(name) ? 'mcp' : null }, s.ref);
      if (s.end === null) continue; // never ended: the funnel counts it as lost
      if (s.error) ctx.emit({ ...call, event: 'tool_failure', ts: s.end, duration_ms: duration, duration_source: 'measured', failure_kind: 'tool_error', error_code: null }, s.ref);
      else ctx.emit({ ...call, event: 'tool_success', ts: s.end, duration_ms: duration, duration_source: 'measured', output_bytes: null, raw_bytes: null, empty: null, truncated: null, spilled: null }, s.ref);
    } else if (type === 'guardrail') {
      const name = (str(s.data.name) ?? 'guardrail').slice(0, 64);
      const triggered = s.data.triggered === true;
      const entry = stats.get(name) ?? { evaluated: 0, triggered: 0, ref: s.ref, ts: s.start as number };
      entry.evaluated++;
      if (triggered) {
        entry.triggered++;
        ctx.emit({ ...scope, event: 'defense_trigger', ts: s.end ?? s.start, turn: turns, defense: 'external_guardrail', action: 'stop', tool: null, external_name: name }, s.ref);
      }
      stats.set(name, entry);
    } else if (type === 'mcp_tools') {
      const server = str(s.data.server);
      if (server === null || !MCP_SERVER.test(server)) ctx.skip(s.ref, 'mcp_tools span whose server name is not a contract label');
      else if (duration === null) ctx.skip(s.ref, 'mcp_tools span that never ended');
      // Listing a server's tools is the last step of connecting to it: the span's time is that step's.
      else ctx.emit({ ...scope, event: 'mcp_server', ts: s.end, server, state: s.error ? 'failed' : 'connected', duration_ms: duration }, s.ref);
    }
    // agent spans: their tool lists went into session_start; task and turn spans: their usage went into the calls and the session.
  }
  for (const [name, e] of stats) ctx.emit({ ...scope, event: 'defense_stats', ts: endMs, defense: 'external_guardrail', external_name: name, evaluated: e.evaluated, triggered: e.triggered }, e.ref);
  const sum = (k: keyof ReturnType<typeof tokens>) => (usages.length > 0 && usages.every((u) => u[k] !== null) ? usages.reduce((n, u) => n + (u[k] as number), 0) : null);
  // The run's own total (the JS SDK's task span) where exported; else the calls' sum.
  const total = task ? tokens(task.data.usage) : null;
  ctx.emit(
    {
      ...scope,
      event: 'session_end',
      ts: endMs,
      outcome: null,
      stop: null,
      turns,
      input_tokens: total ? total.input_tokens : sum('input_tokens'),
      output_tokens: total ? total.output_tokens : sum('output_tokens'),
      cache_read_tokens: total ? total.cache_read_tokens : sum('cache_read_tokens'),
      cache_write_tokens: total ? total.cache_write_tokens : null,
      duration_ms: endMs - startMs,
    },
    sessionRef,
  );
}

export const openaiAgents: Importer = {
  name: 'openai-agents',
  title: 'OpenAI Agents SDK trace and span exports (trace / trace.span objects: .jsonl, or a {"data": [...]} batch)',
  unit: 'item',
  extensions: ['.json', '.jsonl'],
  detect,
  notes: [
    'function spans carry no tool call id (the span id stands for it), no error kind beyond tool_error, and no output size',
    'no stop reason, provider or session outcome; guardrails appear as the external_guardrail defense under their own names',
  ],
  async importFile(path, ctx) {
    const reader = new Reader(ctx);
    // A document is a JSON array of items, or the backend exporter's {"data": [...]} batch.
    await readSource(path, ctx, (sample) => [/^\s*\[/.test(sample.text) ? '$.*' : '$.data.*'], (value, line, keys) => {
      if (keys.length === 0) reader.value(value, line);
      else reader.item(value, ctx.record(line));
    });
    await reader.groups.each((traceId, items) => traceEvents(traceId, items, path, ctx));
  },
};
