/**
 * Where exported spans go, in OTLP's own envelopes: spans are batched into
 * ExportTraceServiceRequest objects (`{"resourceSpans": [...]}`, one
 * resource per faultline run) and either appended to a file, one request
 * per line as the OpenTelemetry Collector's file exporter writes them, or
 * POSTed to an OTLP/HTTP endpoint with `Content-Type: application/json`
 * (opentelemetry-proto docs/specification.md, OTLP/HTTP: `/v1/traces`,
 * 200 with an ExportTraceServiceResponse whose `partialSuccess` names
 * rejected spans; 429/502/503/504 are retryable, honouring Retry-After).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { FAULTLINE_VERSION } from '../version.js';
import type { OtlpSpan } from './otel-export.js';
import { ATTR, fl, toAttributes } from './otlp-json.js';
import { encodeTraceRequest, type TraceRequest } from './otlp-protobuf.js';

export interface SpanSink {
  /** Takes one finished span; a full batch is written or sent by `drain`. */
  add(span: OtlpSpan, runId: string): void;
  /** Writes or sends every full batch (or all, with `all`). */
  drain(all?: boolean): Promise<void>;
  close(): void;
  readonly requests: number;
}

export function exportRequest(byRun: Map<string, OtlpSpan[]>): unknown {
  return {
    resourceSpans: [...byRun].map(([runId, spans]) => ({
      resource: { attributes: toAttributes({ [ATTR.serviceName]: 'faultline', [ATTR.serviceVersion]: FAULTLINE_VERSION, [fl('run_id')]: runId }) },
      scopeSpans: [{ scope: { name: 'faultline', version: FAULTLINE_VERSION }, spans }],
    })),
  };
}

abstract class Batching implements SpanSink {
  private batch = new Map<string, OtlpSpan[]>();
  private size = 0;
  private readonly ready: unknown[] = [];
  requests = 0;

  constructor(private readonly batchSize: number) {}

  add(span: OtlpSpan, runId: string): void {
    const list = this.batch.get(runId);
    if (list) list.push(span);
    else this.batch.set(runId, [span]);
    if (++this.size >= this.batchSize) this.cut();
  }

  private cut(): void {
    if (this.size === 0) return;
    this.ready.push(exportRequest(this.batch));
    this.batch = new Map();
    this.size = 0;
  }

  async drain(all = false): Promise<void> {
    if (all) this.cut();
    while (this.ready.length > 0) {
      await this.send(this.ready.shift());
      this.requests++;
    }
  }

  protected abstract send(request: unknown): Promise<void>;
  close(): void {}
}

export class FileSpanSink extends Batching {
  private readonly fd: number;
  constructor(path: string, batchSize: number) {
    super(batchSize);
    this.fd = openSync(path, 'w');
  }
  protected async send(request: unknown): Promise<void> {
    writeSync(this.fd, JSON.stringify(request) + '\n');
  }
  override close(): void {
    closeSync(this.fd);
  }
}

export class ExportError extends Error {
  readonly code = 'EXPORT_ERROR';
}

const RETRYABLE = new Set([429, 502, 503, 504]);

export interface HttpSinkOptions {
  batchSize: number;
  headers?: Record<string, string>;
  /** Attempts per request (network errors and 429/502/503/504). */
  attempts?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** OTLP/HTTP encoding (default http/json for a string endpoint, as before). */
  protocol?: 'http/protobuf' | 'http/json';
}

/** `http://host:4318` (a base, as OTEL_EXPORTER_OTLP_ENDPOINT is) gets `/v1/traces`; a URL with a path is used as given. */
export function tracesUrl(endpoint: string): URL {
  const url = new URL(endpoint);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces';
  return url;
}

export class HttpSpanSink extends Batching {
  private readonly url: URL;
  constructor(
    endpoint: string | URL,
    private readonly options: HttpSinkOptions,
  ) {
    super(options.batchSize);
    // A resolved URL (otlp-config.ts) is used as is.
    this.url = typeof endpoint === 'string' ? tracesUrl(endpoint) : endpoint;
  }

  protected async send(request: unknown): Promise<void> {
    const protobuf = this.options.protocol === 'http/protobuf';
    const body = protobuf ? encodeTraceRequest(request as TraceRequest) : JSON.stringify(request);
    const type = protobuf ? 'application/x-protobuf' : 'application/json';
    const attempts = this.options.attempts ?? 3;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(this.url, {
          method: 'POST',
          headers: { ...this.options.headers, 'content-type': type },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
      } catch (error) {
        if (attempt < attempts) {
          await sleep(500 * attempt);
          continue;
        }
        throw new ExportError(`${this.url.href}: ${(error as Error).message} (after ${attempt} attempts)`);
      }
      const text = await response.text();
      if (response.ok) {
        const rejected = partialRejection(text);
        if (rejected) throw new ExportError(`${this.url.href}: the receiver rejected ${rejected}`);
        return;
      }
      if (RETRYABLE.has(response.status) && attempt < attempts) {
        const after = Number(response.headers.get('retry-after'));
        await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 10) * 1000 : 500 * attempt);
        continue;
      }
      throw new ExportError(`${this.url.href}: HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}`);
    }
  }
}

/** `partialSuccess.rejectedSpans` of an ExportTraceServiceResponse, as text, or null when none were rejected. */
function partialRejection(body: string): string | null {
  if (body.trim() === '') return null;
  try {
    const parsed = JSON.parse(body) as { partialSuccess?: { rejectedSpans?: string | number; errorMessage?: string } };
    const rejected = Number(parsed.partialSuccess?.rejectedSpans ?? 0);
    if (rejected > 0) return `${rejected} spans${parsed.partialSuccess?.errorMessage ? `: ${parsed.partialSuccess.errorMessage}` : ''}`;
  } catch {
    // a receiver may answer 200 with another body; the status says it was accepted
  }
  return null;
}
