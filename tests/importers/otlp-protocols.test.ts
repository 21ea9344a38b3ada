/**
 * `export otel` to the receivers people run: Phoenix (OTLP/HTTP protobuf
 * only: JSON gets 415) and Langfuse (a base URL to which /v1/traces is
 * appended, Basic auth in OTEL_EXPORTER_OTLP_HEADERS), configured by the
 * OpenTelemetry exporter variables as the OTLP exporter specification defines
 * them. The receiver decodes protobuf with the official definitions
 * (@opentelemetry/otlp-transformer's generated root) and checks every span.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { appendTracesPath, otlpTarget, parseHeaders } from '../../src/importers/otlp-config.js';
import { writeTrace } from '../analysis/fixtures.js';
import { goldenLines } from '../analysis/golden-trace.js';
import { scratch } from './helpers.js';
import { startReceiver, type Receiver } from './otlp-official.js';

let receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers) await r.close();
  receivers = [];
});
const receiver = async (options: Parameters<typeof startReceiver>[0]) => {
  const r = await startReceiver(options);
  receivers.push(r);
  return r;
};

async function exportOtel(args: string[], env: NodeJS.ProcessEnv = {}, trace = writeTrace(scratch(), 'golden.jsonl', goldenLines())) {
  let stdout = '';
  let stderr = '';
  const code = await run(['export', 'otel', trace, ...args], {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { NO_COLOR: '1', ...env },
    cwd: process.cwd(),
    isTTY: false,
  });
  return { code, stdout, stderr };
}

/** A request with what protobuf cannot tell apart from absent (empty lists, zero codes, empty strings) left out. */
function normalize(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalize(v));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if ((Array.isArray(v) && v.length === 0) || v === '' || (v === 0 && k !== 'doubleValue' && k !== 'intValue')) continue;
      out[k] = normalize(v, k);
    }
    return out;
  }
  return key === 'intValue' ? String(value) : value;
}

describe('export otel --protocol and the OTEL_EXPORTER_OTLP_* variables', () => {
  it('sends OTLP/HTTP protobuf by default, which a protobuf-only receiver (Phoenix) accepts and decodes span for span', async () => {
    const phoenix = await receiver({ accept: 'protobuf' });
    const trace = writeTrace(scratch(), 'golden.jsonl', goldenLines());
    const r = await exportOtel(['--endpoint', phoenix.url, '--batch', '4'], {}, trace);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`exported 16 spans (3 sessions, 3 model calls, 10 tool calls) in 4 requests to ${phoenix.url}/v1/traces (OTLP/HTTP protobuf)`);
    expect(phoenix.spans).toBe(16);
    expect(new Set(phoenix.contentTypes)).toEqual(new Set(['application/x-protobuf']));
    // The same spans as OTLP/JSON, field for field, once decoded with the official definitions.
    const json = await receiver({ accept: 'json' });
    expect((await exportOtel(['--endpoint', json.url, '--batch', '4', '--protocol', 'http/json'], {}, trace)).code).toBe(0);
    expect(phoenix.requests.map((q) => normalize(q))).toEqual(json.requests.map((q) => normalize(q)));
  });

  it('http/json to a protobuf-only receiver fails with its 415 (the protocol is what Phoenix cares about)', async () => {
    const phoenix = await receiver({ accept: 'protobuf' });
    const r = await exportOtel(['--endpoint', phoenix.url, '--protocol', 'http/json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HTTP 415');
  });

  it('OTEL_EXPORTER_OTLP_ENDPOINT is a base URL (Langfuse: /api/public/otel gets /v1/traces) and OTEL_EXPORTER_OTLP_HEADERS is percent-decoded', async () => {
    const langfuse = await receiver({ path: '/api/public/otel/v1/traces' });
    const r = await exportOtel([], { OTEL_EXPORTER_OTLP_ENDPOINT: `${langfuse.url}/api/public/otel`, OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20cGs6c2s=,x-langfuse-ingestion-version=4' });
    expect(r.code, r.stderr).toBe(0);
    expect(langfuse.spans).toBe(16);
    expect(langfuse.paths.every((p) => p === '/api/public/otel/v1/traces')).toBe(true);
    expect(langfuse.headers[0]).toMatchObject({ authorization: 'Basic cGs6c2s=', 'x-langfuse-ingestion-version': '4', 'content-type': 'application/x-protobuf' });
  });

  it('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as is and beats OTEL_EXPORTER_OTLP_ENDPOINT; the traces protocol and headers beat the general ones', async () => {
    const custom = await receiver({ path: '/ingest/otlp' });
    const r = await exportOtel([], {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/never',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${custom.url}/ingest/otlp`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-team=a',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=b',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(custom.spans).toBe(16);
    expect(custom.contentTypes[0]).toBe('application/json');
    expect(custom.headers[0]).toMatchObject({ 'x-team': 'b' });
  });

  it('refuses grpc, an unknown protocol and a malformed header variable with a clear message (exit 2)', async () => {
    const grpc = await exportOtel([], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(grpc.code).toBe(2);
    expect(grpc.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc: faultline exports over OTLP/HTTP only');
    expect((await exportOtel(['--endpoint', 'http://127.0.0.1:4318', '--protocol', 'thrift'])).stderr).toContain('--protocol must be http/protobuf or http/json, got "thrift"');
    const bad = await exportOtel([], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_HEADERS: 'novalue' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('OTEL_EXPORTER_OTLP_HEADERS: "novalue" is not key=value');
    const none = await exportOtel([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('or set OTEL_EXPORTER_OTLP_ENDPOINT');
  });

  it('builds URLs and headers as the exporter specification says', () => {
    expect(appendTracesPath('http://host:4318').href).toBe('http://host:4318/v1/traces');
    expect(appendTracesPath('http://host:4318/').href).toBe('http://host:4318/v1/traces');
    expect(appendTracesPath('https://cloud.langfuse.com/api/public/otel').href).toBe('https://cloud.langfuse.com/api/public/otel/v1/traces');
    expect(parseHeaders(' a = 1 ,b=x%2Cy%3D', 'X')).toEqual({ a: '1', b: 'x,y=' });
    expect(otlpTarget({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318' })?.protocol).toBe('http/protobuf');
    expect(otlpTarget({}, {})).toBeNull();
  });
});
