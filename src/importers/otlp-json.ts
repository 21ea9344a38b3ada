/**
 * OTLP/JSON, as the OpenTelemetry protocol specifies it
 * (opentelemetry-proto, "JSON Protobuf Encoding"): lowerCamelCase field
 * names; `traceId` / `spanId` as hex strings (32 and 16 digits), not base64;
 * int64 values (`startTimeUnixNano`, `intValue`) as decimal strings; enums
 * (`kind`, `status.code`) as integers. An attribute is
 * `{ key, value: AnyValue }`, an AnyValue exactly one of `stringValue`,
 * `boolValue`, `intValue`, `doubleValue`, `arrayValue: { values }`,
 * `kvlistValue: { values }`, `bytesValue`.
 *
 * Attribute names follow the OpenTelemetry GenAI semantic conventions
 * (docs/gen-ai/gen-ai-spans.md, gen-ai-agent-spans.md in
 * open-telemetry/semantic-conventions) and OpenInference
 * (Arize-ai/openinference spec/semantic_conventions.md); faultline's own
 * fields travel as `faultline.*` attributes so an export imports back whole.
 */

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string | number }
  | { doubleValue: number }
  | { arrayValue: { values?: AnyValue[] } }
  | { kvlistValue: { values?: KeyValue[] } }
  | { bytesValue: string };

export interface KeyValue {
  key: string;
  value: AnyValue;
}

export type AttrValue = string | number | boolean | AttrValue[] | null;

/** An AnyValue as a plain value (int64 as a number when exact, else its string); null for an empty or unknown shape. */
export function fromAnyValue(value: unknown): AttrValue {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== undefined) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if (typeof v.doubleValue === 'number') return v.doubleValue;
  if (typeof v.doubleValue === 'string') return Number(v.doubleValue); // NaN/Infinity are strings in proto JSON
  if (typeof v.arrayValue === 'object' && v.arrayValue !== null) {
    const values = (v.arrayValue as { values?: unknown[] }).values;
    return Array.isArray(values) ? values.map(fromAnyValue) : [];
  }
  return null;
}

/** An attribute list as a map from key to plain value (the last of repeated keys wins, as collectors do). */
export function attributeMap(list: unknown): Map<string, AttrValue> {
  const out = new Map<string, AttrValue>();
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (typeof kv === 'object' && kv !== null && typeof (kv as KeyValue).key === 'string') out.set((kv as KeyValue).key, fromAnyValue((kv as KeyValue).value));
  }
  return out;
}

/** A plain value as an AnyValue: integers as int64 strings, other numbers as doubles. */
export function toAnyValue(value: string | number | boolean | readonly (string | number | boolean)[]): AnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { arrayValue: { values: value.map((v) => toAnyValue(v)) } };
}

/** Attributes from a record; null and undefined values are left out (an absent attribute is OTel's "not known"). */
export function toAttributes(record: Record<string, string | number | boolean | readonly (string | number | boolean)[] | null | undefined>): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, value] of Object.entries(record)) if (value !== null && value !== undefined) out.push({ key, value: toAnyValue(value) });
  return out;
}

const HEX_TRACE = /^[0-9a-f]{32}$/;
const HEX_SPAN = /^[0-9a-f]{16}$/;
const ZERO = /^0+$/;

export const isTraceId = (id: unknown): id is string => typeof id === 'string' && HEX_TRACE.test(id) && !ZERO.test(id);
export const isSpanId = (id: unknown): id is string => typeof id === 'string' && HEX_SPAN.test(id) && !ZERO.test(id);

/** Unix nanos (a decimal string or a number) as a bigint, or null. */
export function nanos(value: unknown): bigint | null {
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return null;
}

/** Nanos as whole epoch ms (the contract's `ts`). */
export const nanosToMs = (ns: bigint): number => Number(ns / 1_000_000n);
/** A nanosecond span as milliseconds, exact to the nanosecond. */
export const nanosDurationMs = (start: bigint, end: bigint): number => Number(end - start) / 1e6;
/** Epoch ms (integer) as nanos. */
export const msToNanos = (ms: number): bigint => BigInt(Math.round(ms)) * 1_000_000n;

/** OTLP span kinds and status codes (opentelemetry-proto trace.proto). */
export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;
export const STATUS_CODE = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/** A status code as its number, also when a producer wrote the enum name ("STATUS_CODE_ERROR"). */
export function statusCode(status: unknown): number {
  if (typeof status !== 'object' || status === null) return STATUS_CODE.UNSET;
  const code = (status as { code?: unknown }).code;
  if (typeof code === 'number') return code;
  if (code === 'STATUS_CODE_ERROR') return STATUS_CODE.ERROR;
  if (code === 'STATUS_CODE_OK') return STATUS_CODE.OK;
  return STATUS_CODE.UNSET;
}

/** The attribute names used in both directions (GenAI semconv, OpenInference, and faultline's own). */
export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  errorType: 'error.type',
  httpStatus: 'http.response.status_code',
  serviceName: 'service.name',
  serviceVersion: 'service.version',
  // OpenInference
  oiKind: 'openinference.span.kind',
  oiToolName: 'tool.name',
  oiToolId: 'tool.id',
  oiModel: 'llm.model_name',
  oiProvider: 'llm.provider',
  oiSystem: 'llm.system',
  oiPromptTokens: 'llm.token_count.prompt',
  oiCompletionTokens: 'llm.token_count.completion',
  oiCacheRead: 'llm.token_count.prompt_details.cache_read',
  oiCacheWrite: 'llm.token_count.prompt_details.cache_write',
  oiSession: 'session.id',
} as const;

/** faultline's fields that have no GenAI name: `faultline.<field>`, the contract's own field names. */
export const fl = (field: string): string => `faultline.${field}`;
/** Span event names for contract events that ride on a span. */
export const FL_EVENT = {
  defenseTrigger: 'faultline.defense_trigger',
  defenseStats: 'faultline.defense_stats',
  permission: 'faultline.permission_decision',
  hook: 'faultline.hook',
  mcpServer: 'faultline.mcp_server',
  expectation: 'faultline.expectation',
} as const;
