import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { mockAdapter } from './mock-adapter.js';

const body = JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
let server: LoopbackServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the loopback server', () => {
  it('binds 127.0.0.1 only, on a free port by default', async () => {
    server = await startLoopbackServer();
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('serves its default script on both root routes, streaming when the request asks', async () => {
    server = await startLoopbackServer({ script: [{ text: 'hello' }] });
    const a = await fetch(`${server.origin}/v1/messages`, { method: 'POST', body });
    expect(await a.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'hello' }] });
    const o = await fetch(`${server.origin}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(o.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await o.text()).endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('answers unknown routes and unknown sessions with 404 in the wire envelope', async () => {
    server = await startLoopbackServer();
    expect((await fetch(`${server.origin}/v2/other`, { method: 'POST', body })).status).toBe(404);
    const missing = await fetch(`${server.origin}/s/nope/v1/messages`, { method: 'POST', body });
    expect([missing.status, ((await missing.json()) as { type: string }).type]).toEqual([404, 'error']);
  });

  it('resets the connection before any byte for a reset fault (the SDK sees a connection error)', async () => {
    server = await startLoopbackServer();
    const session = server.register([{ text: 'hi', fault: { reset: true } }], { wire: 'anthropic' });
    const model = mockAdapter({ wire: 'anthropic', baseURL: session.baseURL });
    const error = await model.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 5 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'connection', retryable: true });
  });

  it('cuts a non-streaming JSON body half-way, which the adapter reports as a retryable connection error', async () => {
    server = await startLoopbackServer();
    const session = server.register([{ text: 'hi', fault: { cut_after_events: 1 } }], { wire: 'openai' });
    const model = mockAdapter({ wire: 'openai', baseURL: session.baseURL });
    const error = await model.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 5 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'connection', retryable: true });
  });

  it('waits delay_ms before the headers', async () => {
    server = await startLoopbackServer({ script: [{ text: 'slow', fault: { delay_ms: 120 } }] });
    const started = performance.now();
    const res = await fetch(`${server.origin}/v1/messages`, { method: 'POST', body });
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(res.status).toBe(200);
  });

  it('fails a stalled stream as a retryable timeout once no data came for the idle limit', async () => {
    server = await startLoopbackServer();
    const session = server.register([{ text: 'slow', fault: { chunk_delay_ms: 400 } }], { wire: 'anthropic' });
    const model = mockAdapter({ wire: 'anthropic', baseURL: session.baseURL, stream: true, streamIdleTimeoutMs: 100 });
    const started = performance.now();
    const error = await model.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 5 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
