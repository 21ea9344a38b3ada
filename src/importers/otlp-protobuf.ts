/**
 * OTLP/HTTP binary: an ExportTraceServiceRequest (the OTLP/JSON object
 * faultline builds, otlp-json.ts) encoded as protobuf, the encoding every
 * OTLP receiver must accept and the only one some do (Phoenix answers
 * OTLP/JSON with 415). Field numbers are those of opentelemetry-proto
 * (collector/trace/v1/trace_service.proto, trace/v1/trace.proto,
 * common/v1/common.proto, resource/v1/resource.proto). Written here rather
 * than through @opentelemetry/otlp-transformer, which encodes only SDK span
 * objects and would bring the SDK (tens of MB) in as a runtime dependency;
 * the tests decode this output with that package's own protobuf definitions.
 */
import type { AnyValue, KeyValue } from './otlp-json.js';
import type { OtlpSpan } from './otel-export.js';

/** Protobuf wire types. */
const VARINT = 0;
const I64 = 1;
const LEN = 2;

class Writer {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private varint(value: bigint): void {
    const out: number[] = [];
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.push(Uint8Array.from(out));
  }

  private tag(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  /** A varint field; `always` writes a zero too (a oneof member is present even when 0). */
  uint(field: number, value: number | bigint, always = false): this {
    if (!always && (value === 0 || value === 0n)) return this;
    this.tag(field, VARINT);
    this.varint(BigInt(value));
    return this;
  }

  bool(field: number, value: boolean): this {
    this.tag(field, VARINT);
    this.varint(value ? 1n : 0n);
    return this;
  }

  fixed64(field: number, value: bigint): this {
    if (value === 0n) return this;
    this.tag(field, I64);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
    this.push(b);
    return this;
  }

  double(field: number, value: number): this {
    this.tag(field, I64);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array, always = false): this {
    if (!always && value.length === 0) return this;
    this.tag(field, LEN);
    this.varint(BigInt(value.length));
    this.push(value);
    return this;
  }

  string(field: number, value: string | undefined): this {
    return value ? this.bytes(field, new TextEncoder().encode(value)) : this;
  }

  /** A sub-message, written even when empty (presence matters for oneof and repeated values). */
  message(field: number, write: (w: Writer) => void): this {
    const inner = new Writer();
    write(inner);
    const body = inner.finish();
    this.tag(field, LEN);
    this.varint(BigInt(body.length));
    this.push(body);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

const hex = (id: string | undefined): Uint8Array => (id ? Uint8Array.from(Buffer.from(id, 'hex')) : new Uint8Array());

function anyValue(w: Writer, v: AnyValue): void {
  if ('stringValue' in v) w.bytes(1, new TextEncoder().encode(v.stringValue), true);
  else if ('boolValue' in v) w.bool(2, v.boolValue);
  else if ('intValue' in v) w.uint(3, BigInt(v.intValue), true);
  else if ('doubleValue' in v) w.double(4, v.doubleValue);
  else if ('arrayValue' in v) w.message(5, (a) => (v.arrayValue.values ?? []).forEach((x) => a.message(1, (e) => anyValue(e, x))));
  else if ('kvlistValue' in v) w.message(6, (l) => (v.kvlistValue.values ?? []).forEach((kv) => l.message(1, (e) => keyValue(e, kv))));
  else if ('bytesValue' in v) w.bytes(7, Uint8Array.from(Buffer.from(v.bytesValue, 'base64')), true);
}

function keyValue(w: Writer, kv: KeyValue): void {
  w.string(1, kv.key).message(2, (v) => anyValue(v, kv.value));
}

function span(w: Writer, s: OtlpSpan): void {
  w.bytes(1, hex(s.traceId)).bytes(2, hex(s.spanId)).bytes(4, hex(s.parentSpanId)).string(5, s.name).uint(6, s.kind);
  w.fixed64(7, BigInt(s.startTimeUnixNano)).fixed64(8, BigInt(s.endTimeUnixNano));
  for (const a of s.attributes) w.message(9, (e) => keyValue(e, a));
  for (const ev of s.events) w.message(11, (e) => { e.fixed64(1, BigInt(ev.timeUnixNano)).string(2, ev.name); for (const a of ev.attributes) e.message(3, (x) => keyValue(x, a)); });
  w.message(15, (st) => st.string(2, s.status.message).uint(3, s.status.code));
}

/** The shape exportRequest() builds (otlp-sinks.ts). */
export interface TraceRequest {
  resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[] }[];
}

export function encodeTraceRequest(request: TraceRequest): Uint8Array {
  const w = new Writer();
  for (const rs of request.resourceSpans) {
    w.message(1, (r) => {
      r.message(1, (res) => rs.resource.attributes.forEach((a) => res.message(1, (e) => keyValue(e, a))));
      for (const ss of rs.scopeSpans) {
        r.message(2, (s) => {
          s.message(1, (sc) => sc.string(1, ss.scope.name).string(2, ss.scope.version));
          for (const sp of ss.spans) s.message(2, (x) => span(x, sp));
        });
      }
    });
  }
  return w.finish();
}
