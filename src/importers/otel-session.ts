/**
 * One OTLP trace's spans -> one session's contract events (the mapping the
 * `otel` importer applies once a trace's spans are all read; see otel.ts for
 * the vocabulary). faultline's own `faultline.*` attributes, where present,
 * restore what the GenAI names do not carry.
 */
import { FailureKind, ModelErrorKind } from '../events/labels.js';
import { kindForStatus } from '../providers/classify-error.js';
import { fileRunId, importedTool } from './common.js';
import { ATTR, FL_EVENT, STATUS_CODE, fl, nanosDurationMs, nanosToMs, type AttrValue } from './otlp-json.js';
import type { ImportContext, RecordRef } from './types.js';
import { AI, aiToolCallCount, finishReasonClass } from './otel-vocab.js';

export type Role = 'agent' | 'chat' | 'tool';
export type Attrs = Record<string, AttrValue>;

export interface SpanRecord {
  spanId: string;
  parent: string | null;
  name: string;
  /** Unix nanos as decimal strings: records may be spilled to disk as JSON. */
  start: string;
  end: string;
  role: Role;
  attrs: Attrs;
  status: number;
  events: { name: string; time: string; attrs: Attrs }[];
  ref: RecordRef;
  resourceRun: string | null;
}

const text = (a: Attrs, k: string): string | null => (typeof a[k] === 'string' && (a[k] as string).length > 0 ? (a[k] as string) : null);
const int = (a: Attrs, k: string): number | null => (typeof a[k] === 'number' && Number.isInteger(a[k]) && (a[k] as number) >= 0 ? (a[k] as number) : null);
const num = (a: Attrs, k: string): number | null => (typeof a[k] === 'number' && (a[k] as number) >= 0 ? (a[k] as number) : null);
const bool = (a: Attrs, k: string): boolean | null => (typeof a[k] === 'boolean' ? (a[k] as boolean) : null);
/** The times faultline's export marked as not recorded in its source (`faultline.unknown`). */
const unknownOf = (a: Attrs): Set<string> => new Set(Array.isArray(a['faultline.unknown']) ? (a['faultline.unknown'] as AttrValue[]).filter((v): v is string => typeof v === 'string') : []);
const strings = (a: Attrs, k: string): string[] | null => (Array.isArray(a[k]) ? (a[k] as AttrValue[]).filter((v): v is string => typeof v === 'string') : null);

/** Prompt tokens without the cached ones (the contract's input_tokens); OTel counts cached tokens inside input_tokens. */
function usage(a: Attrs): { input_tokens: number | null; output_tokens: number | null; cache_read_tokens: number | null; cache_write_tokens: number | null } {
  const input = int(a, ATTR.inputTokens) ?? int(a, ATTR.oiPromptTokens) ?? int(a, AI.inputTokens) ?? int(a, AI.promptTokens);
  // The AI SDK's inputTokens include cache reads and writes (inputTokenDetails splits them), as OTel's do.
  const read = int(a, ATTR.cacheReadTokens) ?? int(a, ATTR.oiCacheRead) ?? int(a, AI.cacheReadTokens) ?? int(a, AI.cachedInputTokens);
  const write = int(a, ATTR.cacheWriteTokens) ?? int(a, ATTR.oiCacheWrite) ?? int(a, AI.cacheWriteTokens);
  const uncached = input === null ? null : input - (read ?? 0) - (write ?? 0);
  return {
    input_tokens: uncached !== null && uncached >= 0 ? uncached : null,
    output_tokens: int(a, ATTR.outputTokens) ?? int(a, ATTR.oiCompletionTokens) ?? int(a, AI.outputTokens) ?? int(a, AI.completionTokens),
    cache_read_tokens: read,
    cache_write_tokens: write,
  };
}

function stopClassOf(a: Attrs, reason: string | null) {
  const own = text(a, fl('stop_class'));
  if (own !== null) return own as never;
  return finishReasonClass(reason); // null when not recorded: SQL NULL, not the 'null' class
}

/** The finish reason as recorded: GenAI's array, the AI SDK's string, or OpenInference's output message. */
function finishReason(a: Attrs): string | null {
  const reasons = strings(a, ATTR.finishReasons);
  if (reasons && reasons.length > 0) return reasons[0] as string;
  return text(a, AI.finishReason) ?? text(a, AI.oiFinishReason) ?? text(a, AI.oiMessageFinishReason);
}

/** One trace's spans -> a session's events. */
export function traceEvents(traceId: string, spans: SpanRecord[], path: string, ctx: ImportContext): void {
  // Start times parsed once (sorting on the nanosecond strings would parse them on every comparison).
  const starts = new Map(spans.map((s) => [s, BigInt(s.start)]));
  const startOf = (s: SpanRecord) => starts.get(s) as bigint;
  // At the same start, a tool span goes before a model call: a model call cannot ask for a tool at the instant it starts, so that tool answers an earlier call (a producer that stamps starts in whole milliseconds, OpenLLMetry's SDK, starts a tool and the next call in the same one).
  const rank = (s: SpanRecord) => (s.role === 'tool' ? 0 : 1);
  const byStart = [...spans].sort((a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : rank(a) - rank(b)));
  const ids = new Set(spans.map((s) => s.spanId));
  const agents = byStart.filter((s) => s.role === 'agent');
  // The session's own span: the outermost agent span; agents nested in it (sub-agents) add no session of their own.
  const root = agents.find((s) => s.parent === null || !ids.has(s.parent)) ?? agents[0] ?? null;
  for (const a of agents) if (a !== root) ctx.skip(a.ref, 'nested agent span (its model and tool calls count in the trace\'s session)');
  // How the session was formed, said with the import: auto-instrumentation often has no span around the run.
  if (!root) ctx.warn('a trace with no session span (invoke_agent, ai.generateText/streamText, AGENT, traceloop workflow/agent): its spans are one session by trace id');
  const first = byStart[0] as SpanRecord;
  const ra = root?.attrs ?? {};
  const find = (key: string) => spans.map((s) => text(s.attrs, key)).find((v) => v !== null) ?? null;
  const sessionId = text(ra, fl('session_id')) ?? traceId;
  const scope = {
    run_id: text(ra, fl('run_id')) ?? first.resourceRun ?? find(fl('run_id')) ?? fileRunId('otel', path),
    session_id: sessionId,
    task_id: text(ra, fl('task_id')) ?? text(ra, ATTR.agentName) ?? sessionId,
  };
  const startNs = BigInt(root?.start ?? first.start);
  const endNs = root ? BigInt(root.end) : byStart.reduce((m, s) => (BigInt(s.end) > m ? BigInt(s.end) : m), 0n);
  const sessionRef = (root ?? first).ref;
  const emit: Emit = (event, ref) => ctx.emit(event, ref);
  const sessionUnknown = unknownOf(ra);
  // faultline's own export marks a session whose trace had no session_start or session_end.
  if (ra[fl('started')] !== false) emit(
    {
      ...scope,
      event: 'session_start',
      ts: sessionUnknown.has('start_ts') ? null : nanosToMs(startNs),
      scenario: text(ra, fl('scenario')),
      repeat: int(ra, fl('repeat')),
      defenses_armed: strings(ra, fl('defenses_armed')) as never,
      // Optional in the contract: only traces whose harness recorded what it implements carry it.
      ...withDefensesAvailable(strings(ra, fl('defenses_available'))),
      tools: strings(ra, fl('tools')),
      deferred_tools: strings(ra, fl('deferred_tools')),
      permission_mode: text(ra, fl('permission_mode')) as never,
      headless: bool(ra, fl('headless')),
    },
    sessionRef,
  );
  const chats = byStart.filter((s) => s.role === 'chat');
  // In start order, a tool span's turn is the number of model calls started before it.
  let chatsSoFar = 0;
  for (const s of byStart) {
    if (s.role === 'chat') chatEvents(s, ++chatsSoFar, scope, emit);
    else if (s.role === 'tool') toolEvents(s, chatsSoFar, scope, emit, (ref, reason) => ctx.quarantine(ref, reason));
  }
  if (root) for (const e of root.events) sessionSpanEvent(e, scope, emit, root.ref);
  // The calls the model asked for against the tool spans there are: a tool that is not instrumented, or whose span never ended (OpenLLMetry 0.27's withTool does not end the span of a tool that throws), leaves none.
  const asked = chats.map((c) => toolUseCount(c.attrs, finishReason(c.attrs)));
  const toolSpans = spans.filter((s) => s.role === 'tool').length;
  const askedTotal = asked.every((n) => n !== null) ? (asked as number[]).reduce((a, b) => a + b, 0) : null;
  if (askedTotal !== null && askedTotal > toolSpans) ctx.warn(`a trace whose model calls asked for more tool calls than it has tool spans (a tool not instrumented, or whose span was never ended): its tool figures count only the spans`);
  const totals = root ? usage(ra) : null;
  // Only answered calls have usage: a failed call (status ERROR) adds no tokens, it does not make the total unknown.
  const summed = sumUsage(chats.filter((c) => c.status !== STATUS_CODE.ERROR && text(c.attrs, ATTR.errorType) === null).map((c) => usage(c.attrs)));
  const tokens = totals && totals.input_tokens !== null ? totals : summed;
  const failed = root !== null && root.status === STATUS_CODE.ERROR;
  if (ra[fl('ended')] === false) return;
  emit(
    {
      ...scope,
      event: 'session_end',
      ts: sessionUnknown.has('end_ts') ? null : nanosToMs(endNs),
      outcome: (text(ra, fl('outcome')) as never) ?? (failed ? 'error' : null),
      stop: text(ra, fl('stop')) as never,
      turns: int(ra, fl('turns')) ?? chats.length,
      ...tokens,
      duration_ms: sessionUnknown.has('duration_ms') ? null : nanosDurationMs(startNs, endNs),
    },
    sessionRef,
  );
}

/** How many tool calls a model call's response asked for, as its producer recorded them; null when not recorded. */
function toolUseCount(a: Attrs, reason: string | null): number | null {
  return int(a, fl('tool_use_count')) ?? aiToolCallCount(a[AI.toolCalls]) ?? int(a, AI.outputToolCallCount) ?? int(a, AI.oiToolCallCount) ?? aiNoToolCalls(a, reason);
}

/** The AI SDK writes ai.response.toolCalls only when a step has calls: absent on a step that did not end for tools, it is 0. */
function aiNoToolCalls(a: Attrs, reason: string | null): number | null {
  return text(a, AI.operationId) !== null && reason !== null && finishReasonClass(reason) !== 'tool_use' ? 0 : null;
}

function sumUsage(list: ReturnType<typeof usage>[]): ReturnType<typeof usage> {
  const sum = (k: keyof ReturnType<typeof usage>) => (list.length > 0 && list.every((u) => u[k] !== null) ? list.reduce((n, u) => n + (u[k] as number), 0) : null);
  return { input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens'), cache_read_tokens: sum('cache_read_tokens'), cache_write_tokens: sum('cache_write_tokens') };
}

type Scope = { run_id: string; session_id: string; task_id: string };
type Emit = ImportContext['emit'];

function chatEvents(s: SpanRecord, ordinal: number, scope: Scope, emit: Emit): void {
  const a = s.attrs;
  const start = BigInt(s.start);
  const end = BigInt(s.end);
  const turn = int(a, fl('turn')) ?? ordinal;
  const unknown = unknownOf(a);
  const provider = text(a, ATTR.provider) ?? text(a, ATTR.system) ?? text(a, ATTR.oiProvider) ?? text(a, ATTR.oiSystem) ?? text(a, AI.modelProvider);
  // A retry of a request already sent (faultline's export: one span per attempt) is not a second request.
  if (a[fl('request')] !== false) emit(
    {
      ...scope,
      event: 'model_request',
      ts: unknown.has('request_ts') ? null : nanosToMs(start),
      turn,
      provider: provider?.slice(0, 64) ?? null,
      model: (text(a, ATTR.requestModel) ?? text(a, ATTR.oiModel) ?? text(a, AI.modelId) ?? text(a, ATTR.responseModel))?.slice(0, 128) ?? null,
      stream: bool(a, fl('stream')),
      messages_count: int(a, fl('messages_count')),
      tools_count: int(a, fl('tools_count')),
      tools_bytes: int(a, fl('tools_bytes')),
      request_bytes: int(a, fl('request_bytes')),
      prefix_hash: text(a, fl('prefix_hash')),
    },
    s.ref,
  );
  if (text(a, fl('result')) === 'lost') return; // a request never answered: still without a response
  const errorType = text(a, ATTR.errorType);
  if (s.status === STATUS_CODE.ERROR || errorType !== null) {
    const status = int(a, ATTR.httpStatus);
    const kind = errorType !== null && ModelErrorKind.safeParse(errorType).success ? errorType : status !== null ? kindForStatus(status) : 'unknown';
    emit({ ...scope, event: 'model_error', ts: unknown.has('ts') ? null : nanosToMs(end), turn, error_kind: kind as never, status, attempt: int(a, fl('attempt')) || null, will_retry: bool(a, fl('will_retry')), retry_after_ms: num(a, fl('retry_after_ms')) }, s.ref);
    return;
  }
  const reason = finishReason(a);
  emit(
    {
      ...scope,
      event: 'model_response',
      ts: unknown.has('ts') ? null : nanosToMs(end),
      turn,
      duration_ms: unknown.has('duration_ms') ? null : nanosDurationMs(start, end),
      ttft_ms: num(a, fl('ttft_ms')) ?? num(a, AI.msToFirstChunk),
      stop_reason: reason?.slice(0, 64) ?? null,
      stop_class: stopClassOf(a, reason),
      tool_use_count: toolUseCount(a, reason),
      ...usage(a),
    },
    s.ref,
  );
}

function toolEvents(s: SpanRecord, chatsBefore: number, scope: Scope, emit: Emit, quarantine: ImportContext['quarantine']): void {
  const a = s.attrs;
  const start = BigInt(s.start);
  const end = BigInt(s.end);
  const name =
    text(a, ATTR.toolName) ?? text(a, ATTR.oiToolName) ?? text(a, AI.toolName) ?? text(a, AI.traceloopName) ?? (s.name.startsWith('execute_tool ') ? s.name.slice('execute_tool '.length) : null);
  if (name === null) return quarantine(s.ref, 'tool span without gen_ai.tool.name, tool.name, ai.toolCall.name or traceloop.entity.name');
  const named = importedTool(name);
  const unknown = unknownOf(a);
  const tool = text(a, fl('tool')) ?? named.tool;
  const call = {
    ...scope,
    turn: int(a, fl('turn')) ?? chatsBefore,
    tool,
    tool_use_id: text(a, ATTR.toolCallId) ?? text(a, ATTR.oiToolId) ?? text(a, AI.toolId) ?? s.spanId,
  };
  emit({ ...call, event: 'tool_call', ts: unknown.has('call_ts') ? null : (int(a, fl('call_ts')) ?? nanosToMs(start)), requested_tool: text(a, fl('requested_tool')) ?? named.requested_tool, batch: int(a, fl('batch')), concurrency_safe: bool(a, fl('concurrency_safe')), source: text(a, fl('source')) as never }, s.ref);
  for (const e of s.events) toolSpanEvent(e, call, emit, s.ref);
  if (text(a, fl('result')) === 'lost') return; // exported from a call that never ended: still lost
  // faultline's own export (it always writes faultline.tool) keeps an event without duration_source without one; other spans timed their own work.
  const source = text(a, fl('duration_source')) ?? (a[fl('tool')] === undefined ? 'measured' : null);
  // The tool's own time where the producer recorded it (gen_ai.execute_tool.duration, seconds), else the span's.
  const own = num(a, AI.executeToolDuration);
  const duration = unknown.has('duration_ms') ? null : own !== null ? Math.round(own * 1e6) / 1e3 : nanosDurationMs(start, end);
  const result = { ...call, ts: unknown.has('ts') ? null : nanosToMs(end), duration_ms: duration, ...(source === null && own === null ? {} : { duration_source: (own !== null ? 'measured' : source) as never }) };
  const errorType = text(a, ATTR.errorType);
  if (s.status === STATUS_CODE.ERROR || errorType !== null) {
    const known = errorType !== null && FailureKind.safeParse(errorType).success;
    emit({ ...result, event: 'tool_failure', failure_kind: (known ? errorType : 'tool_error') as never, error_code: text(a, fl('error_code')) ?? (known ? null : (errorType?.slice(0, 64) ?? null)) }, s.ref);
  } else {
    emit({ ...result, event: 'tool_success', output_bytes: int(a, fl('output_bytes')), raw_bytes: int(a, fl('raw_bytes')), empty: bool(a, fl('empty')), truncated: bool(a, fl('truncated')), spilled: bool(a, fl('spilled')) }, s.ref);
  }
}

function toolSpanEvent(e: SpanRecord['events'][number], call: Scope & { turn: number; tool: string; tool_use_id: string }, emit: Emit, ref: RecordRef): void {
  const a = e.attrs;
  const ts = unknownOf(a).has('ts') ? null : nanosToMs(BigInt(e.time));
  if (e.name === FL_EVENT.permission) emit({ ...call, event: 'permission_decision', ts, decision: text(a, fl('decision')) as never, source: text(a, fl('source')) as never, needed_prompt: bool(a, fl('needed_prompt')) as never, rule_id: text(a, fl('rule_id')) }, ref);
  else if (e.name === FL_EVENT.hook) emit({ ...call, event: 'hook', ts, hook: text(a, fl('hook')) as never, effect: text(a, fl('effect')) as never, duration_ms: num(a, fl('duration_ms')) }, ref);
}

function sessionSpanEvent(e: SpanRecord['events'][number], scope: Scope, emit: Emit, ref: RecordRef): void {
  const a = e.attrs;
  const ts = unknownOf(a).has('ts') ? null : nanosToMs(BigInt(e.time));
  const external = text(a, fl('external_name'));
  const ext = external === null ? {} : { external_name: external };
  if (e.name === FL_EVENT.defenseTrigger) emit({ ...scope, event: 'defense_trigger', ts, turn: int(a, fl('turn')) ?? 0, defense: text(a, fl('defense')) as never, action: text(a, fl('action')) as never, tool: text(a, ATTR.toolName), ...ext }, ref);
  else if (e.name === FL_EVENT.defenseStats) emit({ ...scope, event: 'defense_stats', ts, defense: text(a, fl('defense')) as never, ...ext, evaluated: int(a, fl('evaluated')) as never, triggered: int(a, fl('triggered')) as never }, ref);
  else if (e.name === FL_EVENT.mcpServer) emit({ ...scope, event: 'mcp_server', ts, server: text(a, fl('server')) as never, state: text(a, fl('state')) as never, duration_ms: num(a, fl('duration_ms')) as never }, ref);
  else if (e.name === FL_EVENT.expectation) emit({ ...scope, event: 'expectation', ts, id: text(a, fl('id')) as never, ok: bool(a, fl('ok')) as never, detail: typeof a[fl('detail')] === 'string' ? (a[fl('detail')] as string) : '' }, ref);
}

function withDefensesAvailable(names: string[] | null): { defenses_available?: string[] } {
  return names === null ? {} : { defenses_available: names };
}
