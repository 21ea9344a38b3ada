/**
 * Test helper: checks OTLP/JSON against the official OpenTelemetry protobuf
 * definitions, as compiled by the OpenTelemetry JS project
 * (@opentelemetry/otlp-transformer's generated root, from
 * opentelemetry-proto), and a local OTLP/HTTP receiver built on them.
 *
 * No OTLP receiver is installable here: Debian has no OpenTelemetry
 * Collector or Jaeger package (only Go library sources), and npm has OTLP
 * exporters and encoders but no collector. So the receiver below is a plain
 * node:http server that does what a collector's OTLP/HTTP JSON receiver does
 * with a request: parse it with the official message definitions, refuse
 * anything they do not define, and encode it to protobuf.
 *
 * The check is strict: every key must be a field of its official message
 * type (read from the generated prototypes), ids must be hex of the right
 * length, int64 values decimal strings, enums integers, an AnyValue exactly
 * one value; and the message must come back unchanged through the official
 * fromObject -> protobuf encode -> decode -> toObject.
 */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
// The generated static module: one constructor per message of opentelemetry-proto.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated code, untyped here on purpose
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as any;
const proto = root.opentelemetry.proto;

/* eslint-disable @typescript-eslint/no-explicit-any -- protobufjs message classes */
const TYPES: Record<string, any> = {
  request: proto.collector.trace.v1.ExportTraceServiceRequest,
  resourceSpans: proto.trace.v1.ResourceSpans,
  resource: proto.resource.v1.Resource,
  scopeSpans: proto.trace.v1.ScopeSpans,
  scope: proto.common.v1.InstrumentationScope,
  span: proto.trace.v1.Span,
  event: proto.trace.v1.Span.Event,
  link: proto.trace.v1.Span.Link,
  status: proto.trace.v1.Status,
  kv: proto.common.v1.KeyValue,
  any: proto.common.v1.AnyValue,
  array: proto.common.v1.ArrayValue,
  kvlist: proto.common.v1.KeyValueList,
};
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Which message type each nested field holds. */
const CHILDREN: Record<string, Record<string, string>> = {
  request: { resourceSpans: 'resourceSpans' },
  resourceSpans: { resource: 'resource', scopeSpans: 'scopeSpans' },
  resource: { attributes: 'kv' },
  scopeSpans: { scope: 'scope', spans: 'span' },
  scope: { attributes: 'kv' },
  span: { attributes: 'kv', events: 'event', links: 'link', status: 'status' },
  event: { attributes: 'kv' },
  link: { attributes: 'kv' },
  kv: { value: 'any' },
  any: { arrayValue: 'array', kvlistValue: 'kvlist' },
  array: { values: 'any' },
  kvlist: { values: 'kv' },
};
const INT64 = new Set(['startTimeUnixNano', 'endTimeUnixNano', 'timeUnixNano', 'intValue']);
const ENUMS = new Set(['kind', 'code']);
const IDS: Record<string, number> = { traceId: 32, spanId: 16, parentSpanId: 16 };

const fieldsOf = (type: string): Set<string> => new Set(Object.keys(TYPES[type].prototype).filter((k) => k !== 'toJSON'));

function walk(value: unknown, type: string, where: string, problems: string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return void problems.push(`${where}: not an object`);
  const fields = fieldsOf(type);
  const keys = Object.keys(value);
  if (type === 'any' && keys.length !== 1) problems.push(`${where}: an AnyValue holds exactly one value, got ${keys.join(',') || 'none'}`);
  for (const [key, v] of Object.entries(value)) {
    const at = `${where}.${key}`;
    if (!fields.has(key)) {
      problems.push(`${at}: not a field of ${type} in the official definitions`);
      continue;
    }
    if (key in IDS && (typeof v !== 'string' || !new RegExp(`^[0-9a-f]{${IDS[key]}}$`).test(v))) problems.push(`${at}: not ${IDS[key]} lowercase hex digits`);
    if (INT64.has(key) && (typeof v !== 'string' || !/^[0-9]+$/.test(v))) problems.push(`${at}: int64 is a decimal string in OTLP/JSON`);
    if (ENUMS.has(key) && !Number.isInteger(v)) problems.push(`${at}: enums are integers in OTLP/JSON`);
    const child = CHILDREN[type]?.[key];
    if (child) {
      if (Array.isArray(v)) v.forEach((item, i) => walk(item, child, `${at}[${i}]`, problems));
      else walk(v, child, at, problems);
    }
  }
}

/** Hex ids as the base64 protobufjs expects for bytes, in a copy; empty arrays dropped (toObject leaves them out). */
function toProtoObject(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => toProtoObject(v));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (Array.isArray(v) && v.length === 0) continue;
      out[k] = toProtoObject(v, k);
    }
    return out;
  }
  if (key in IDS && typeof value === 'string') return Buffer.from(value, 'hex').toString('base64');
  return value;
}

/** Every way `request` is not an ExportTraceServiceRequest in OTLP/JSON; empty when it is one. */
export function otlpProblems(request: unknown): string[] {
  const problems: string[] = [];
  walk(request, 'request', 'request', problems);
  if (problems.length > 0) return problems;
  const T = TYPES.request;
  const object = toProtoObject(request);
  const message = T.decode(T.encode(T.fromObject(object)).finish());
  const verified = T.verify(message);
  if (verified) problems.push(`protobuf verify: ${verified}`);
  const back = T.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false, arrays: false });
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(back)), object)) problems.push('the message changed through the official protobuf encoding (a value of the wrong type or shape)');
  return problems;
}

/** Protobuf bytes of a valid request, as a collector would forward it. */
export function encodeProtobuf(request: unknown): Uint8Array {
  const T = TYPES.request;
  return T.encode(T.fromObject(toProtoObject(request))).finish();
}

/**
 * A protobuf request as the official definitions decode it, back in OTLP/JSON
 * form (hex ids, int64 as strings, enums as integers), or null when the bytes
 * are not an ExportTraceServiceRequest.
 */
export function decodeProtobuf(bytes: Uint8Array): unknown {
  const T = TYPES.request;
  let message;
  try {
    message = T.decode(bytes);
  } catch {
    return null;
  }
  if (T.verify(message)) return null;
  const object = T.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false, arrays: false });
  const hexIds = (v: unknown, key = ''): unknown => {
    if (Array.isArray(v)) return v.map((x) => hexIds(x));
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hexIds(x, k)]));
    return key in IDS && typeof v === 'string' ? Buffer.from(v, 'base64').toString('hex') : v;
  };
  return JSON.parse(JSON.stringify(hexIds(object)));
}

export interface Receiver {
  url: string;
  requests: unknown[];
  /** The Content-Type of each accepted request. */
  contentTypes: string[];
  /** The headers of each request received (lower-case names). */
  headers: Record<string, string | string[] | undefined>[];
  /** The path of each request received. */
  paths: string[];
  spans: number;
  /** Answers for the next requests (a status, a body); afterwards 200 `{}`. */
  script: { status: number; body?: string; headers?: Record<string, string> }[];
  close(): Promise<void>;
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1, as a Collector's: POST `path` only
 * (default /v1/traces), application/json and application/x-protobuf (the
 * latter decoded with the official definitions), or only the `accept`ed one
 * (415 otherwise, as Phoenix answers JSON); invalid spans are rejected as partialSuccess.
 */
export async function startReceiver(options: { path?: string; accept?: 'json' | 'protobuf' | 'both' } = {}): Promise<Receiver> {
  const path = options.path ?? '/v1/traces';
  const accept = options.accept ?? 'both';
  const receiver: Receiver = { url: '', requests: [], contentTypes: [], headers: [], paths: [], spans: 0, script: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(body);
      };
      receiver.headers.push({ ...req.headers });
      receiver.paths.push(req.url ?? '');
      if (req.method !== 'POST' || req.url !== path) return reply(404, '{}');
      const type = String(req.headers['content-type']);
      const json = type.startsWith('application/json');
      const protobuf = type.startsWith('application/x-protobuf');
      if (!(json && accept !== 'protobuf') && !(protobuf && accept !== 'json')) return reply(415, '{}');
      const scripted = receiver.script.shift();
      if (scripted) return reply(scripted.status, scripted.body ?? '{}', scripted.headers);
      let body: unknown;
      if (protobuf) {
        body = decodeProtobuf(new Uint8Array(Buffer.concat(chunks)));
        if (body === null) return reply(400, JSON.stringify({ code: 3, message: 'not an ExportTraceServiceRequest' }));
      } else {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return reply(400, JSON.stringify({ code: 3, message: 'not JSON' }));
        }
      }
      receiver.contentTypes.push(type);
      const problems = otlpProblems(body);
      const spans = ((body as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] }).resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? [])).length;
      if (problems.length > 0) return reply(200, JSON.stringify({ partialSuccess: { rejectedSpans: String(spans), errorMessage: problems.slice(0, 3).join('; ') } }));
      encodeProtobuf(body);
      receiver.requests.push(body);
      receiver.spans += spans;
      reply(200, '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
