/**
 * The in-process fetch against the loopback server, request for request: the
 * same script and fault on each must give the same status, the same headers
 * (minus what only a socket has: connection, keep-alive, transfer-encoding),
 * the same bytes before the end or the break, and the same error shape (the
 * class, message and cause code Node's fetch gives), so the SDKs and the
 * harness cannot tell the transports apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { createMemoryMount, type MemoryMount } from './memory-mount.js';
import { mockAdapter } from './mock-adapter.js';
import type { ModelScript } from './script.js';
import type { z } from 'zod';

let server: LoopbackServer;
let mount: MemoryMount;
beforeAll(async () => {
  server = await startLoopbackServer();
  mount = createMemoryMount();
});
afterAll(async () => {
  await server.close();
});

const SOCKET_ONLY = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
const request = (stream: boolean) =>
  JSON.stringify({
    model: 'm',
    max_tokens: 10,
    stream,
    messages: [{ role: 'user', content: 'write it' }],
  });

interface Seen {
  status: number | null;
  headers: Record<string, string>;
  /** The body as far as it came. */
  body: string;
  /** `TypeError: fetch failed (ECONNRESET)` or similar; null when the body ended cleanly. */
  error: string | null;
}

function describeError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string } };
  return `${e.name}: ${e.message}${e.cause?.code !== undefined ? ` (${e.cause.code})` : ''}`;
}

async function exchange(f: typeof fetch, url: string, body: string, signal?: AbortSignal): Promise<Seen> {
  const seen: Seen = { status: null, headers: {}, body: '', error: null };
  try {
    const response = await f(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...(signal ? { signal } : {}) });
    seen.status = response.status;
    response.headers.forEach((value, name) => {
      if (!SOCKET_ONLY.has(name)) seen.headers[name] = value;
    });
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen.body += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    seen.error = describeError(error);
  }
  return seen;
}

/** The same script once on each transport; the first request of each. */
async function both(script: z.input<typeof ModelScript>, stream: boolean, signal?: () => AbortSignal): Promise<{ http: Seen; memory: Seen }> {
  const overHttp = server.register(script, { wire: 'anthropic' });
  const inMemory = mount.register(script, { wire: 'anthropic' });
  const [http, memory] = await Promise.all([
    exchange(fetch, `${overHttp.baseURL}/v1/messages`, request(stream), signal?.()),
    exchange(mount.fetch, `${inMemory.baseURL}/v1/messages`, request(stream), signal?.()),
  ]);
  overHttp.close();
  inMemory.close();
  // Session ids differ by transport (l1 / i1) and appear in the request-id header and message ids.
  const same = (seen: Seen, id: string) => JSON.parse(JSON.stringify(seen).replaceAll(id, '<session>')) as Seen;
  return { http: same(http, overHttp.id), memory: same(memory, inMemory.id) };
}

const call = { name: 'write', input: { file_path: 'summary.txt', content: 'a long enough text to cut through\n' } };

describe('the in-process fetch answers as the loopback server does', () => {
  it.each<[string, z.input<typeof ModelScript>, boolean]>([
    ['a JSON reply', [{ text: 'Hello.' }], false],
    ['an SSE reply', [{ tool_use: [call] }], true],
    ['429 with retry-after-ms', [{ text: 'x', fault: { status: 429, headers: { 'retry-after-ms': '40' } } }], false],
    ['429 with retry-after in seconds', [{ text: 'x', fault: { status: 429, headers: { 'retry-after': '0.05' } } }], true],
    ['503 with retry-after and x-should-retry', [{ text: 'x', fault: { status: 503, headers: { 'retry-after': '1', 'x-should-retry': 'true' } } }], false],
    ['529 overloaded', [{ text: 'x', fault: { status: 529 } }], true],
    ['an error event mid-stream', [{ tool_use: [call], fault: { sse_error: { after_events: 'inside_tool_input' } } }], true],
    ['a stream cut inside the arguments', [{ tool_use: [call], fault: { cut_after_events: 'inside_tool_input' } }], true],
    ['a stream cut after 3 events', [{ text: 'Hello there.', fault: { cut_after_events: 3 } }], true],
    ['a JSON body cut half-way', [{ text: 'Hello there.', fault: { cut_after_events: 1 } }], false],
    ['a reset before any byte', [{ text: 'x', fault: { reset: true } }], false],
    ['a delayed, paced stream', [{ text: 'slow', fault: { delay_ms: 30, chunk_delay_ms: 5 } }], true],
  ])('%s', async (_name, script, stream) => {
    const { http, memory } = await both(script, stream);
    expect(memory).toEqual(http);
  });

  it('really cuts the stream before its end (the comparison above is not of two whole bodies)', async () => {
    const { memory } = await both([{ tool_use: [call], fault: { cut_after_events: 'inside_tool_input' } }], true);
    expect(memory.error).toBe('TypeError: terminated (ECONNRESET)');
    expect(memory.body).toContain('input_json_delta');
    expect(memory.body).not.toContain('message_stop');
  });

  it('rejects with the abort reason when the caller aborts a stalled stream', async () => {
    const { http, memory } = await both([{ text: 'Hello there.', fault: { stall_after_events: 2 } }], true, () => AbortSignal.timeout(150));
    expect(memory).toEqual(http);
    expect(memory.error).toMatch(/^(TimeoutError|AbortError)/);
  });

  it('sends a stream with nothing to pace or break in one piece, and a paced one event by event', async () => {
    const reads = async (script: z.input<typeof ModelScript>) => {
      const session = mount.register(script, { wire: 'anthropic' });
      const response = await mount.fetch(`${session.baseURL}/v1/messages`, { method: 'POST', body: request(true), headers: { 'content-type': 'application/json' } });
      const reader = response.body!.getReader();
      let count = 0;
      while (!(await reader.read()).done) count++;
      session.close();
      return count;
    };
    expect(await reads([{ tool_use: [call] }])).toBe(1);
    expect(await reads([{ tool_use: [call], fault: { chunk_delay_ms: 1 } }])).toBeGreaterThan(5);
  });

  it('refuses every URL outside its origin', async () => {
    await expect(mount.fetch('https://api.anthropic.com/v1/messages', { method: 'POST', body: '{}' })).rejects.toThrow(/serves http:\/\/memory\.faultline\.invalid only/);
  });

  it('gives the official SDK the same errors as a socket does (reset: connection; JSON cut: connection)', async () => {
    for (const fault of [{ reset: true as const }, { cut_after_events: 1 }]) {
      const session = mount.register([{ text: 'hi', fault }], { wire: 'openai' });
      const model = mockAdapter({ wire: 'openai', baseURL: session.rootBaseURL, headers: session.headers, fetch: mount.fetch });
      const error = await model.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 5 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'connection', retryable: true });
      if ('reset' in fault) expect((error as Error).message).toBe('connection reset');
      session.close();
    }
  });

  it('fails a paced stream as a retryable timeout once no data came for the idle limit', async () => {
    const session = mount.register([{ text: 'slow', fault: { chunk_delay_ms: 400 } }], { wire: 'anthropic' });
    const model = mockAdapter({ wire: 'anthropic', baseURL: session.rootBaseURL, headers: session.headers, fetch: mount.fetch, stream: true, streamIdleTimeoutMs: 100 });
    const error = await model.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], maxTokens: 5 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    session.close();
    expect(mount.openSessions()).toBe(0);
  });
});

describe('the request headers the router sees', () => {
  it('routes by the session header of a Headers object and keeps every header (lower-case, secrets redacted) as the HTTP path does', async () => {
    const script: z.input<typeof ModelScript> = [{ text: 'Hello.' }];
    const overHttp = server.register(script, { wire: 'anthropic', recordBodies: true });
    const inMemory = mount.register(script, { wire: 'anthropic', recordBodies: true });
    const headers = (id: string) => new Headers({ 'Content-Type': 'application/json', 'X-Api-Key': 'sk-secret', 'X-Stainless-Lang': 'js', 'x-faultline-mock-session': id });
    // At the root URL, so only the session header can route the request.
    await (await fetch(`${server.origin}/v1/messages`, { method: 'POST', body: request(false), headers: headers(overHttp.id) })).text();
    const response = await mount.fetch(`${mount.origin}/v1/messages`, { method: 'POST', body: request(false), headers: headers(inMemory.id) });
    expect(response.status).toBe(200);
    await response.text();
    const seen = (record: { headers?: Record<string, string> }, id: string) => Object.fromEntries(Object.entries(record.headers ?? {}).filter(([name]) => !['connection', 'host', 'content-length', 'user-agent', 'accept', 'accept-language', 'accept-encoding', 'sec-fetch-mode'].includes(name)).map(([name, value]) => [name, value.replaceAll(id, '<session>')]));
    expect(inMemory.requests).toHaveLength(1);
    expect(seen(inMemory.requests[0]!, inMemory.id)).toEqual(seen(overHttp.requests[0]!, overHttp.id));
    expect(seen(inMemory.requests[0]!, inMemory.id)).toEqual({ 'content-type': 'application/json', 'x-api-key': '[redacted]', 'x-stainless-lang': 'js', 'x-faultline-mock-session': '<session>' });
    overHttp.close();
    inMemory.close();
  });
});

describe('a streamed body the reader gives up on', () => {
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

  it('ends a stall at once when the reader cancels (no 15 s timer left behind)', async () => {
    const session = mount.register([{ text: 'Hello there.', fault: { stall_after_events: 2 } }], { wire: 'anthropic' });
    const before = timers();
    const response = await mount.fetch(`${session.baseURL}/v1/messages`, { method: 'POST', body: request(true), headers: { 'content-type': 'application/json' } });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    // The third read waits in the stall; cancelling must end that wait, not leave it holding a timer.
    const third = reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(timers()).toBe(before + 1);
    await reader.cancel();
    expect((await third).done).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers()).toBe(before);
    session.close();
  });

  it('streams a body without pauses whole, and one with paced chunks after the delay, both ending cleanly', async () => {
    for (const fault of [undefined, { chunk_delay_ms: 5 }]) {
      const session = mount.register([{ text: 'Hello there.', ...(fault ? { fault } : {}) }], { wire: 'anthropic' });
      const seen = await exchange(mount.fetch, `${session.baseURL}/v1/messages`, request(true));
      expect(seen.error).toBeNull();
      expect(seen.body).toContain('message_stop');
      session.close();
    }
  });
});
