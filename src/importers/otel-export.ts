/**
 * faultline traces -> OTLP/JSON spans (GenAI semantic conventions), streamed:
 * each finished span is handed on as soon as it ends, so memory holds only
 * the sessions still open. A session is a trace with an `invoke_agent` span;
 * each model-call attempt a `chat {model}` span (CLIENT), each tool call an
 * `execute_tool {tool}` span (INTERNAL) whose failure kind is `error.type`;
 * defense triggers and stats, MCP server states and expectations are span
 * events on the session span, permission decisions and hooks on the tool
 * span. Fields with no GenAI name travel as `faultline.<field>`, so the
 * `otel` importer reads an export back into the same events.
 *
 * Ids are derived (sha256) from the run, session and call ids, so exporting
 * the same trace twice sends the same spans. A span's end is its event's
 * time and its start that minus the event's own duration, to the
 * nanosecond, so durations survive the trip exactly.
 */
import { createHash } from 'node:crypto';
import type { FaultlineEvent } from '../events/schemas.js';
import { ATTR, FL_EVENT, SPAN_KIND, STATUS_CODE, fl, msToNanos, toAttributes, type KeyValue } from './otlp-json.js';

type Of<N extends FaultlineEvent['event']> = Extract<FaultlineEvent, { event: N }>;
type AttrInput = Parameters<typeof toAttributes>[0];

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  events: { timeUnixNano: string; name: string; attributes: KeyValue[] }[];
  status: { code: number; message?: string };
}

interface ToolState {
  call: Of<'tool_call'>;
  spanEvents: OtlpSpan['events'];
}

interface SessionState {
  runId: string;
  sessionId: string;
  taskId: string;
  traceId: string;
  spanId: string;
  start: Of<'session_start'> | null;
  firstTs: number | null;
  lastTs: number | null;
  tools: Map<string, ToolState>;
  /** Per turn: the request, when its last attempt ended, and whether a span carried the request yet. */
  requests: Map<number, { request: Of<'model_request'>; lastEnd: number | null; sent: boolean; attempts: number }>;
  spanEvents: OtlpSpan['events'];
}

const hex = (text: string, digits: number) => createHash('sha256').update(text).digest('hex').slice(0, digits);
const ns = (ms: number | null | undefined) => String(msToNanos(ms ?? 0));
/** A span ending at `endMs` that lasted `durationMs`, to the nanosecond (durations are fractional ms). */
function window(endMs: number, durationMs: number | null): { startTimeUnixNano: string; endTimeUnixNano: string } {
  const end = msToNanos(endMs);
  const start = durationMs === null ? end : end - BigInt(Math.round(durationMs * 1e6));
  return { startTimeUnixNano: String(start < 0n ? 0n : start), endTimeUnixNano: String(end) };
}

/** Prompt tokens as OTel counts them: cached reads and writes included in gen_ai.usage.input_tokens. */
function usage(e: { input_tokens: number | null; output_tokens: number | null; cache_read_tokens: number | null; cache_write_tokens: number | null }): AttrInput {
  const all = e.input_tokens === null ? null : e.input_tokens + (e.cache_read_tokens ?? 0) + (e.cache_write_tokens ?? 0);
  return { [ATTR.inputTokens]: all, [ATTR.outputTokens]: e.output_tokens, [ATTR.cacheReadTokens]: e.cache_read_tokens, [ATTR.cacheWriteTokens]: e.cache_write_tokens };
}

/** Which of a span's times its events did not record (`faultline.unknown`): the span still needs times, the import gives back null. */
function unknown(fields: Record<string, unknown>): AttrInput {
  const names = Object.entries(fields).filter(([, v]) => v === null || v === undefined).map(([k]) => k);
  return names.length > 0 ? { [fl('unknown')]: names } : {};
}

export interface ExportCounts {
  spans: number;
  sessions: number;
  modelCalls: number;
  toolCalls: number;
}

/** Turns events into spans; `onSpan` hears each finished span with its run id (the resource it belongs to). */
export class OtlpExporter {
  private readonly sessions = new Map<string, SessionState>();
  readonly counts: ExportCounts = { spans: 0, sessions: 0, modelCalls: 0, toolCalls: 0 };

  constructor(private readonly onSpan: (span: OtlpSpan, runId: string) => void) {}

  private session(e: { run_id: string; session_id: string; task_id: string }): SessionState {
    const key = `${e.run_id}\n${e.session_id}`;
    let s = this.sessions.get(key);
    if (!s) {
      s = { runId: e.run_id, sessionId: e.session_id, taskId: e.task_id, traceId: hex(`trace\n${key}`, 32), spanId: hex(`session\n${key}`, 16), start: null, firstTs: null, lastTs: null, tools: new Map(), requests: new Map(), spanEvents: [] };
      this.sessions.set(key, s);
    }
    return s;
  }

  private span(s: SessionState, span: Omit<OtlpSpan, 'traceId'>, counter: keyof ExportCounts): void {
    this.counts.spans++;
    this.counts[counter]++;
    this.onSpan({ traceId: s.traceId, ...span }, s.runId);
  }

  event(e: FaultlineEvent): void {
    if (!('session_id' in e)) return; // run_start / run_end: run-level, carried by the resource
    const s = this.session(e);
    if (e.ts !== null) {
      s.firstTs = s.firstTs === null ? e.ts : Math.min(s.firstTs, e.ts);
      s.lastTs = s.lastTs === null ? e.ts : Math.max(s.lastTs, e.ts);
    }
    const conv = { [ATTR.conversationId]: s.sessionId };
    switch (e.event) {
      case 'session_start':
        s.start = e;
        return;
      case 'session_end':
        return this.endSession(s, e);
      case 'model_request':
        s.requests.set(e.turn, { request: e, lastEnd: e.ts, sent: false, attempts: 0 });
        return;
      case 'model_error':
      case 'model_response':
        return this.chat(s, e, conv);
      case 'tool_call':
        s.tools.set(e.tool_use_id, { call: e, spanEvents: [] });
        return;
      case 'tool_success':
      case 'tool_failure':
        return this.tool(s, e.tool_use_id, e, conv);
      case 'permission_decision':
        return this.toolEvent(s, e.tool_use_id, { timeUnixNano: ns(e.ts), name: FL_EVENT.permission, attributes: toAttributes({ ...unknown({ ts: e.ts }), [fl('decision')]: e.decision, [fl('source')]: e.source, [fl('needed_prompt')]: e.needed_prompt, [fl('rule_id')]: e.rule_id }) });
      case 'hook':
        return this.toolEvent(s, e.tool_use_id, { timeUnixNano: ns(e.ts), name: FL_EVENT.hook, attributes: toAttributes({ ...unknown({ ts: e.ts }), [fl('hook')]: e.hook, [fl('effect')]: e.effect, [fl('duration_ms')]: e.duration_ms }) });
      case 'defense_trigger':
        s.spanEvents.push({ timeUnixNano: ns(e.ts), name: FL_EVENT.defenseTrigger, attributes: toAttributes({ ...unknown({ ts: e.ts }), [fl('defense')]: e.defense, [fl('action')]: e.action, [ATTR.toolName]: e.tool, [fl('turn')]: e.turn, [fl('external_name')]: e.external_name }) });
        return;
      case 'defense_stats':
        s.spanEvents.push({ timeUnixNano: ns(e.ts), name: FL_EVENT.defenseStats, attributes: toAttributes({ ...unknown({ ts: e.ts }), [fl('defense')]: e.defense, [fl('evaluated')]: e.evaluated, [fl('triggered')]: e.triggered, [fl('external_name')]: e.external_name }) });
        return;
      case 'mcp_server':
        s.spanEvents.push({ timeUnixNano: ns(e.ts), name: FL_EVENT.mcpServer, attributes: toAttributes({ ...unknown({ ts: e.ts }), [fl('server')]: e.server, [fl('state')]: e.state, [fl('duration_ms')]: e.duration_ms }) });
        return;
      case 'expectation':
        s.spanEvents.push({ timeUnixNano: ns(e.ts), name: FL_EVENT.expectation, attributes: toAttributes({ ...unknown({ ts: e.ts }), [fl('id')]: e.id, [fl('ok')]: e.ok, [fl('detail')]: e.detail }) });
        return;
    }
  }

  private toolEvent(s: SessionState, id: string, event: OtlpSpan['events'][number]): void {
    const t = s.tools.get(id);
    if (t) t.spanEvents.push(event);
    else s.spanEvents.push(event); // a decision for a call not logged: kept on the session, not lost
  }

  private chat(s: SessionState, e: Of<'model_error'> | Of<'model_response'>, conv: AttrInput): void {
    const pending = s.requests.get(e.turn);
    const r = pending?.request;
    const requestAttrs: AttrInput = r
      ? { [ATTR.provider]: r.provider, [ATTR.requestModel]: r.model, [fl('stream')]: r.stream, [fl('messages_count')]: r.messages_count, [fl('tools_count')]: r.tools_count, [fl('tools_bytes')]: r.tools_bytes, [fl('request_bytes')]: r.request_bytes, [fl('prefix_hash')]: r.prefix_hash }
      : {};
    const attempt = (pending?.attempts ?? 0) + 1;
    const common: AttrInput = { [ATTR.operation]: 'chat', ...conv, ...requestAttrs, [fl('turn')]: e.turn, [fl('request')]: pending ? !pending.sent : false };
    // An attempt with no request logged before it (a source that logs a retried error before the request) adds no request.
    const end = e.ts ?? r?.ts ?? s.lastTs ?? 0;
    const times = e.event === 'model_response' ? window(end, e.duration_ms) : { startTimeUnixNano: ns(Math.min(pending?.lastEnd ?? end, end)), endTimeUnixNano: ns(end) };
    const spanId = hex(`chat\n${s.runId}\n${s.sessionId}\n${e.turn}\n${attempt}\n${e.event}`, 16);
    const name = `chat ${r?.model ?? ''}`.trim();
    if (e.event === 'model_error') {
      const attrs = { ...common, ...unknown({ ts: e.ts }), [ATTR.errorType]: e.error_kind, [ATTR.httpStatus]: e.status, [fl('attempt')]: e.attempt, [fl('will_retry')]: e.will_retry, [fl('retry_after_ms')]: e.retry_after_ms };
      this.span(s, { spanId, parentSpanId: s.spanId, name, kind: SPAN_KIND.CLIENT, ...times, attributes: toAttributes(attrs), events: [], status: { code: STATUS_CODE.ERROR, message: e.error_kind } }, 'modelCalls');
    } else {
      const attrs = { ...common, ...unknown({ request_ts: pending ? r?.ts : 0, ts: e.ts, duration_ms: e.duration_ms }), [ATTR.finishReasons]: e.stop_reason === null ? null : [e.stop_reason], ...usage(e), [fl('stop_class')]: e.stop_class, [fl('ttft_ms')]: e.ttft_ms, [fl('tool_use_count')]: e.tool_use_count };
      this.span(s, { spanId, parentSpanId: s.spanId, name, kind: SPAN_KIND.CLIENT, ...times, attributes: toAttributes(attrs), events: [], status: { code: STATUS_CODE.UNSET } }, 'modelCalls');
    }
    if (pending) {
      pending.sent = true;
      pending.attempts = attempt;
      pending.lastEnd = end;
      if (e.event === 'model_response' || e.will_retry === false) s.requests.delete(e.turn);
    }
  }

  private tool(s: SessionState, id: string, result: Of<'tool_success'> | Of<'tool_failure'> | null, conv: AttrInput): void {
    const t = s.tools.get(id);
    if (!t && !result) return;
    s.tools.delete(id);
    const c = t?.call;
    const tool = c?.tool ?? result?.tool ?? '<unknown>';
    const base: AttrInput = {
      [ATTR.operation]: 'execute_tool',
      ...conv,
      [ATTR.toolName]: c?.requested_tool ?? tool,
      [ATTR.toolCallId]: id,
      [ATTR.toolType]: 'function',
      [fl('tool')]: tool,
      [fl('turn')]: c?.turn ?? result?.turn,
      [fl('requested_tool')]: c?.requested_tool,
      [fl('batch')]: c?.batch,
      [fl('concurrency_safe')]: c?.concurrency_safe,
      [fl('source')]: c?.source,
    };
    const spanId = hex(`tool\n${s.runId}\n${s.sessionId}\n${id}`, 16);
    const span = { spanId, parentSpanId: s.spanId, name: `execute_tool ${tool}`, kind: SPAN_KIND.INTERNAL, events: t?.spanEvents ?? [] };
    if (!result) {
      // The call never ended: a zero-length span marked lost, so the funnel still counts it.
      const at = ns(c?.ts ?? s.lastTs);
      this.span(s, { ...span, startTimeUnixNano: at, endTimeUnixNano: at, attributes: toAttributes({ ...base, [fl('result')]: 'lost' }), status: { code: STATUS_CODE.UNSET } }, 'toolCalls');
      return;
    }
    const times = window(result.ts ?? c?.ts ?? 0, result.duration_ms);
    // The span starts at end - duration; a call logged at another time (a batch's second call waits for the first) keeps its own.
    const spanStart = result.ts !== null && result.duration_ms !== null ? result.ts - result.duration_ms : null;
    const callTs = c && c.ts !== null && c.ts !== spanStart ? c.ts : null;
    const timing = { [fl('duration_source')]: result.duration_source, [fl('call_ts')]: callTs, ...unknown({ call_ts: c ? c.ts : 0, ts: result.ts, duration_ms: result.duration_ms }) };
    if (result.event === 'tool_failure') {
      const attrs = { ...base, ...timing, [ATTR.errorType]: result.failure_kind, [fl('error_code')]: result.error_code };
      this.span(s, { ...span, ...times, attributes: toAttributes(attrs), status: { code: STATUS_CODE.ERROR, message: result.failure_kind } }, 'toolCalls');
    } else {
      const attrs = { ...base, ...timing, [fl('output_bytes')]: result.output_bytes, [fl('raw_bytes')]: result.raw_bytes, [fl('empty')]: result.empty, [fl('truncated')]: result.truncated, [fl('spilled')]: result.spilled };
      this.span(s, { ...span, ...times, attributes: toAttributes(attrs), status: { code: STATUS_CODE.UNSET } }, 'toolCalls');
    }
  }

  private endSession(s: SessionState, end: Of<'session_end'> | null): void {
    const conv = { [ATTR.conversationId]: s.sessionId };
    for (const id of [...s.tools.keys()]) this.tool(s, id, null, conv);
    for (const [turn, p] of s.requests) {
      // A request never answered: a zero-length chat span marked lost.
      const at = ns(p.request.ts ?? s.lastTs);
      const spanId = hex(`chat\n${s.runId}\n${s.sessionId}\n${turn}\nlost`, 16);
      const attrs = { [ATTR.operation]: 'chat', ...conv, [ATTR.provider]: p.request.provider, [ATTR.requestModel]: p.request.model, [fl('turn')]: turn, [fl('request')]: !p.sent, [fl('result')]: 'lost' };
      this.span(s, { spanId, parentSpanId: s.spanId, name: `chat ${p.request.model ?? ''}`.trim(), kind: SPAN_KIND.CLIENT, startTimeUnixNano: at, endTimeUnixNano: at, attributes: toAttributes(attrs), events: [], status: { code: STATUS_CODE.UNSET } }, 'modelCalls');
    }
    s.requests.clear();
    const st = s.start;
    const attrs: AttrInput = {
      [ATTR.operation]: 'invoke_agent',
      [ATTR.agentName]: s.taskId,
      ...conv,
      [fl('run_id')]: s.runId,
      [fl('session_id')]: s.sessionId,
      [fl('task_id')]: s.taskId,
      [fl('scenario')]: st?.scenario,
      [fl('repeat')]: st?.repeat,
      [fl('defenses_armed')]: st?.defenses_armed,
      [fl('defenses_available')]: st?.defenses_available,
      [fl('tools')]: st?.tools,
      [fl('deferred_tools')]: st?.deferred_tools,
      [fl('permission_mode')]: st?.permission_mode,
      [fl('headless')]: st?.headless,
      [fl('started')]: st !== null,
      [fl('ended')]: end !== null,
      ...unknown({ start_ts: st ? st.ts : 0, end_ts: end ? end.ts : 0, duration_ms: end ? end.duration_ms : 0 }),
      ...(end ? { [fl('outcome')]: end.outcome, [fl('stop')]: end.stop, [fl('turns')]: end.turns, ...usage(end) } : {}),
    };
    const endMs = end?.ts ?? s.lastTs ?? 0;
    const times = end && end.duration_ms !== null ? window(endMs, end.duration_ms) : { startTimeUnixNano: ns(st?.ts ?? s.firstTs), endTimeUnixNano: ns(endMs) };
    const failed = end?.outcome === 'error';
    if (failed && end) attrs[ATTR.errorType] = end.stop ?? 'error';
    this.span(s, { spanId: s.spanId, name: `invoke_agent ${s.taskId}`, kind: SPAN_KIND.INTERNAL, ...times, attributes: toAttributes(attrs), events: s.spanEvents, status: { code: failed ? STATUS_CODE.ERROR : STATUS_CODE.UNSET } }, 'sessions');
    this.sessions.delete(`${s.runId}\n${s.sessionId}`);
  }

  /** Sessions the traces never ended: their session spans, marked `faultline.ended = false`. */
  finish(): void {
    for (const s of [...this.sessions.values()]) this.endSession(s, null);
  }
}
