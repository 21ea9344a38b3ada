import { afterEach, describe, expect, it } from 'vitest';
import { writeTrace } from '../analysis/fixtures.js';
import { goldenLines } from '../analysis/golden-trace.js';
import { cli, scratch } from './helpers.js';
import { otlpProblems, startReceiver, type Receiver } from './otlp-official.js';

let receiver: Receiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

const goldenTrace = () => writeTrace(scratch(), 'golden.jsonl', goldenLines());

describe('export otel --endpoint (OTLP/HTTP JSON)', () => {
  it('is accepted by a local OTLP/HTTP receiver built on the official protobuf definitions, every span arriving', async () => {
    receiver = await startReceiver();
    const r = await cli(['export', 'otel', goldenTrace(), '--endpoint', receiver.url, '--batch', '4']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`exported 16 spans (3 sessions, 3 model calls, 10 tool calls) in 4 requests to ${receiver.url}/v1/traces`);
    expect(receiver.spans).toBe(16);
    expect(receiver.requests).toHaveLength(4);
  });

  it('fails (exit 1) when the receiver rejects spans, and names the rejection', async () => {
    receiver = await startReceiver();
    receiver.script.push({ status: 200, body: JSON.stringify({ partialSuccess: { rejectedSpans: '16', errorMessage: 'schema mismatch' } }) });
    const r = await cli(['export', 'otel', goldenTrace(), '--endpoint', `${receiver.url}/v1/traces`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the receiver rejected 16 spans: schema mismatch');
  });

  it('retries a 503 and succeeds; does not retry a 400', async () => {
    receiver = await startReceiver();
    receiver.script.push({ status: 503, headers: { 'retry-after': '0' } });
    const ok = await cli(['export', 'otel', goldenTrace(), '--endpoint', receiver.url]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(receiver.spans).toBe(16);
    receiver.script.push({ status: 400, body: '{"code":3,"message":"bad"}' });
    const bad = await cli(['export', 'otel', goldenTrace(), '--endpoint', receiver.url]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('HTTP 400: {"code":3,"message":"bad"}');
  });
});

describe('the official OTLP/JSON check', () => {
  const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', name: 'chat m', kind: 3, startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: 'k', value: { intValue: '3' } }], status: { code: 0 } };
  const request = (s: object) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans: [s] }] }] });

  it('accepts a well-formed span and refuses what OTLP/JSON does not allow', () => {
    expect(otlpProblems(request(span))).toEqual([]);
    expect(otlpProblems(request({ ...span, traceId: 'S/kvNXezTaajzpKdDg5HNg==' }))).toEqual(['request.resourceSpans[0].scopeSpans[0].spans[0].traceId: not 32 lowercase hex digits']);
    expect(otlpProblems(request({ ...span, startTimeUnixNano: 1 }))[0]).toMatch(/startTimeUnixNano: int64 is a decimal string/);
    expect(otlpProblems(request({ ...span, kind: 'SPAN_KIND_CLIENT' }))[0]).toMatch(/kind: enums are integers/);
    expect(otlpProblems(request({ ...span, duration: 5 }))[0]).toMatch(/duration: not a field of span in the official definitions/);
    expect(otlpProblems(request({ ...span, attributes: [{ key: 'k', value: { intValue: '3', stringValue: 'x' } }] }))[0]).toMatch(/exactly one value/);
    expect(otlpProblems(request({ ...span, name: 7 }))[0]).toMatch(/changed through the official protobuf encoding/);
  });
});
