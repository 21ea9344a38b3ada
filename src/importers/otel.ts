/**
 * OTLP/JSON trace exports (a collector's file exporter writes one
 * `{"resourceSpans": [...]}` per line; a single pretty-printed document is
 * read too) with GenAI spans, in either vocabulary:
 * - OpenTelemetry GenAI semantic conventions: `gen_ai.operation.name` =
 *   `invoke_agent` (the session), `chat` / `text_completion` /
 *   `generate_content` (a model call: `gen_ai.request.model`,
 *   `gen_ai.response.finish_reasons`, `gen_ai.usage.*`), `execute_tool`
 *   (`gen_ai.tool.name`, `gen_ai.tool.call.id`, `error.type`);
 * - OpenInference: `openinference.span.kind` = `AGENT`, `LLM`
 *   (`llm.model_name`, `llm.token_count.*`), `TOOL` (`tool.name`, `tool.id`).
 * A trace is a session. A tool's duration is `gen_ai.execute_tool.duration`
 * where the producer recorded it (AI SDK 7: the tool's own execution time),
 * else the span's own (it includes the SDK's handling around the tool). faultline's own export adds
 * `faultline.*` attributes and span events, so it imports back whole.
 *
 * Spans are records; a span of no GenAI kind is skipped and counted. A span
 * whose ids or times are not OTLP's is quarantined at its line. Spans are
 * grouped by trace in bounded memory (spill-groups.ts).
 */
import { isObject } from './common.js';
import { ATTR, attributeMap, fl, isSpanId, isTraceId, nanos, statusCode, type AttrValue } from './otlp-json.js';
import { traceEvents, type Attrs, type Role, type SpanRecord } from './otel-session.js';
import { readSource } from './records.js';
import { SpillGroups } from './spill-groups.js';
import { AI, AI_CHAT_OPS, AI_SESSION_OPS, AI_TOOL_OP, OI_TOOL_CALL_ID, outputToolCallCount } from './otel-vocab.js';
import type { ImportContext, Importer, RecordRef, Sample } from './types.js';

const CHAT_OPS = new Set(['chat', 'text_completion', 'generate_content']);
const KEPT = new Set<string>([...Object.values(ATTR), ...Object.values(AI)]);
const TRACELOOP_SESSIONS = new Set(['workflow', 'agent']);
const keep = (key: string) => KEPT.has(key) || key.startsWith('faultline.');

/** What a span is, in any vocabulary read here (see otel-vocab.ts), or the reason it is skipped. */
function roleOf(attrs: Map<string, AttrValue>): Role | string {
  const op = attrs.get(ATTR.operation);
  const oi = attrs.get(ATTR.oiKind);
  const ai = attrs.get(AI.operationId);
  const tl = attrs.get(AI.traceloopKind);
  if (op === 'execute_tool' || oi === 'TOOL' || ai === AI_TOOL_OP || tl === 'tool') return 'tool';
  if ((typeof op === 'string' && CHAT_OPS.has(op)) || oi === 'LLM' || (typeof ai === 'string' && AI_CHAT_OPS.has(ai))) return 'chat';
  // OpenLLMetry's model-call spans of older instrumentations name the request type, not the operation.
  if (op === undefined && attrs.get(AI.llmRequestType) === 'chat' && (attrs.has(ATTR.system) || attrs.has(ATTR.requestModel))) return 'chat';
  if (op === 'invoke_agent' || oi === 'AGENT' || (typeof ai === 'string' && AI_SESSION_OPS.has(ai)) || (typeof tl === 'string' && TRACELOOP_SESSIONS.has(tl))) return 'agent';
  if (typeof op === 'string') return `gen_ai.operation.name ${op.slice(0, 40)} (no contract event)`;
  if (typeof ai === 'string') return `ai.operationId ${ai.slice(0, 40)} (no contract event)`;
  if (typeof oi === 'string') return `openinference.span.kind ${oi.slice(0, 40)} (no contract event)`;
  if (typeof tl === 'string') return `traceloop.span.kind ${tl.slice(0, 40)} (no contract event)`;
  return 'span without gen_ai.operation.name, ai.operationId, openinference.span.kind or traceloop.span.kind';
}

/** Which vocabulary named a span's role, for --explain. */
function vocabularyOf(attrs: Map<string, AttrValue>): string {
  for (const key of [ATTR.operation, AI.operationId, ATTR.oiKind, AI.traceloopKind, AI.llmRequestType]) {
    const v = attrs.get(key);
    if (typeof v === 'string') return `${key} ${v.slice(0, 40)}`;
  }
  return 'no kind';
}

function detect(sample: Sample): boolean {
  if (sample.lines.some((l) => isObject(l) && Array.isArray(l.resourceSpans))) return true;
  return sample.lines[0] === undefined && /^\s*\{\s*"resourceSpans"\s*:/.test(sample.text);
}

/** faultline's run id when the resource carries it (faultline's own export). */
function runOf(resource: unknown): string | null {
  const run = attributeMap(isObject(resource) ? resource.attributes : undefined).get(fl('run_id'));
  return typeof run === 'string' ? run : null;
}

class OtlpReader {
  private readonly resourceRuns = new Map<number, string | null>();

  constructor(
    private readonly ctx: ImportContext,
    readonly groups: SpillGroups<SpanRecord>,
    private readonly path: string,
  ) {}

  resource(index: number, resource: unknown): void {
    this.resourceRuns.set(index, runOf(resource));
  }

  requestLine(value: unknown, line: number): void {
    if (!isObject(value) || !Array.isArray(value.resourceSpans)) return this.ctx.quarantine(this.ctx.record(line, this.path), 'not an OTLP trace export (no resourceSpans)');
    for (const [i, rs] of value.resourceSpans.entries()) {
      if (!isObject(rs)) continue;
      const run = runOf(rs.resource);
      for (const ss of Array.isArray(rs.scopeSpans) ? rs.scopeSpans : []) {
        for (const span of isObject(ss) && Array.isArray(ss.spans) ? ss.spans : []) this.span(span, this.ctx.record(line, this.path), run, `resourceSpans[${i}]`);
      }
    }
  }

  span(span: unknown, ref: RecordRef, resourceRun: string | null, where = 'span'): void {
    if (!isObject(span)) return this.ctx.quarantine(ref, `${where}: a span is not an object`);
    const { traceId, spanId } = span;
    if (!isTraceId(traceId)) return this.ctx.quarantine(ref, `${where}: traceId is not 32 lowercase hex digits (OTLP/JSON encodes ids as hex): ${JSON.stringify(traceId)?.slice(0, 60)}`);
    if (!isSpanId(spanId)) return this.ctx.quarantine(ref, `${where}: spanId is not 16 lowercase hex digits: ${JSON.stringify(spanId)?.slice(0, 40)}`);
    const start = nanos(span.startTimeUnixNano);
    const end = nanos(span.endTimeUnixNano);
    if (start === null || end === null || end < start) return this.ctx.quarantine(ref, `${where}: span ${spanId}: startTimeUnixNano/endTimeUnixNano are not unix nanos with end >= start`);
    const all = attributeMap(span.attributes);
    const role = roleOf(all);
    if (role !== 'agent' && role !== 'chat' && role !== 'tool') return this.ctx.skip(ref, role);
    ref.kind = `${role} span (${vocabularyOf(all)})`;
    const attrs: Attrs = {};
    // The recorded output messages can be large: only their tool-call count is kept (see otel-vocab.ts).
    for (const [k, v] of all) if (keep(k) && k !== AI.outputMessages) attrs[k] = v;
    const outputCalls = role === 'chat' ? outputToolCallCount(all.get(AI.outputMessages)) : null;
    if (outputCalls !== null) attrs[AI.outputToolCallCount] = outputCalls;
    // Only when the output message was recorded (an instrumentation may hide outputs): else the count is not available.
    if (all.get(ATTR.oiKind) === 'LLM' && all.has('llm.output_messages.0.message.role')) attrs[AI.oiToolCallCount] = [...all.keys()].filter((k) => OI_TOOL_CALL_ID.test(k)).length;
    const events = (Array.isArray(span.events) ? span.events : [])
      .filter((e): e is Record<string, unknown> => isObject(e) && typeof e.name === 'string' && e.name.startsWith('faultline.'))
      .map((e) => ({ name: e.name as string, time: String(nanos(e.timeUnixNano) ?? end), attrs: Object.fromEntries(attributeMap(e.attributes)) }));
    const parent = isSpanId(span.parentSpanId) ? span.parentSpanId : null;
    this.groups.add(traceId, { spanId, parent, name: typeof span.name === 'string' ? span.name : '', start: String(start), end: String(end), role, attrs, status: statusCode(span.status), events, ref, resourceRun });
  }

  resourceRun(index: number): string | null {
    return this.resourceRuns.get(index) ?? null;
  }
}

export const otel: Importer = {
  name: 'otel',
  title: 'OTLP/JSON trace exports with OpenTelemetry GenAI or OpenInference spans (.json, .jsonl)',
  unit: 'span',
  extensions: ['.json', '.jsonl'],
  detect,
  notes: [
    'a trace is a session; its outcome and turn-stop reason are known only from faultline\'s own export (faultline.* attributes)',
    'a failed tool span is tool_error unless error.type names a contract failure kind; request sizes and prefix hashes come only from faultline\'s own export',
    'a tool span without a call id (OpenLLMetry\'s traceloop tool spans) is identified by its span id; a tool whose span was never ended is missing (said when the model calls asked for more)',
    'tool output sizes, permission decisions and hooks are in no GenAI span (faultline\'s own export only); time to first token only where recorded (AI SDK streamText), cache tokens only where the instrumentation writes them',
    'a tool\'s duration is its own execution time only where gen_ai.execute_tool.duration is recorded (AI SDK 7); else it is the span\'s, which includes the SDK\'s handling around the tool',
  ],
  async importFile(path, ctx) {
    await importOtel([{ path, ctx }]);
  },
  importAll: importOtel,
};

/**
 * Reads every file first, then builds each trace's session: spans of one
 * trace in two files (a rotated exporter file) are one session. Each span
 * stays booked in its own file (its ref names the file).
 */
async function importOtel(files: readonly { path: string; ctx: ImportContext }[]): Promise<void> {
  const groups = new SpillGroups<SpanRecord>();
  const books = new Map(files.map((f) => [f.path, f.ctx]));
  for (const { path, ctx } of files) {
    const reader = new OtlpReader(ctx, groups, path);
    await readSource(path, ctx, () => ['$.resourceSpans.*.resource', '$.resourceSpans.*.scopeSpans.*.spans.*'], (value, line, keys) => {
      if (keys.length === 0) return reader.requestLine(value, line);
      const index = typeof keys[2] === 'number' ? keys[2] : -1;
      if (keys.length === 3) reader.resource(index, value);
      else reader.span(value, ctx.record(line, path), reader.resourceRun(index), `resourceSpans[${index}]`);
    });
  }
  const first = files[0];
  if (!first) return;
  // Events and books go to the file each span came from.
  const of = (ref: RecordRef) => books.get(ref.file ?? first.path) ?? first.ctx;
  const router: ImportContext = {
    file: first.path,
    record: (line, file) => first.ctx.record(line, file),
    skip: (ref, reason) => of(ref).skip(ref, reason),
    quarantine: (ref, reason) => of(ref).quarantine(ref, reason),
    emit: (event, ref) => of(ref).emit(event, ref),
    warn: (text) => first.ctx.warn(text),
    progress: () => {},
  };
  await groups.each((traceId, spans) => traceEvents(traceId, spans, spans[0]?.ref.file ?? first.path, router));
}
