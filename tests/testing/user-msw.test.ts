/**
 * A user who already mocks other HTTP with msw keeps their own `setupServer`
 * next to `faultline/testing`'s mock (and `faultline/msw`'s handlers) in the same test file: both answer, in
 * either order of mounting, and closing one leaves the other working.
 */
import Anthropic from '@anthropic-ai/sdk';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/providers/types.js';
import { mockHandlers } from '../../src/msw.js';
import { mockFetch, mockModel, registerSession, stopMockHub } from '../../src/testing.js';

const ask: ModelRequest = { system: 'test', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], maxTokens: 100 };

const user = setupServer(
  http.post('https://api.example.test/orders', async ({ request }) => {
    const body = (await request.json()) as { item: string };
    return HttpResponse.json({ ok: true, item: body.item });
  }),
);

beforeAll(() => user.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => {
  user.close();
  stopMockHub();
});

async function order(item: string) {
  const res = await fetch('https://api.example.test/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item }) });
  return (await res.json()) as { ok: boolean; item: string };
}

describe("faultline/testing next to the user's own msw server", () => {
  it("answers the user's handler before and after the faultline mock is mounted", async () => {
    expect(await order('before')).toEqual({ ok: true, item: 'before' });
    const { model } = mockModel([{ text: 'from the mock' }], { wire: 'anthropic' });
    const reply = await model.complete(ask);
    expect(reply.content).toContainEqual(expect.objectContaining({ type: 'text', text: 'from the mock' }));
    expect(await order('after')).toEqual({ ok: true, item: 'after' });
  });

  it("a user's own official SDK client reaches the faultline session while the user's handler keeps answering", async () => {
    const session = registerSession([{ text: 'scripted answer' }], { wire: 'anthropic' });
    const client = new Anthropic({ apiKey: 'test', baseURL: session.baseURL, fetch: session.fetch, maxRetries: 0 });
    const [msg, mine] = await Promise.all([
      client.messages.create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] }),
      order('concurrent'),
    ]);
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'scripted answer' });
    expect(mine).toEqual({ ok: true, item: 'concurrent' });
    expect(session.requests).toHaveLength(1);
  });

  it("shares the user's server: with the mock's handlers added to it, a client with no fetch option reaches the mock", async () => {
    user.use(...mockHandlers);
    const session = registerSession([{ text: 'through your server' }], { wire: 'anthropic' });
    const client = new Anthropic({ apiKey: 'test', baseURL: session.baseURL, maxRetries: 0 });
    const msg = await client.messages.create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'through your server' });
    expect(await order('shared')).toEqual({ ok: true, item: 'shared' });
    user.resetHandlers();
  });

  it.each([
    ['anthropic', '/v1/messages', { model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }],
    ['openai', '/chat/completions', { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }],
  ] as const)('on the %s wire the in-process fetch and the msw handlers give the same status, content type and body, streamed or not', async (wire, path, body) => {
    user.use(...mockHandlers);
    const turns = [{ text: 'same answer', tool_use: [{ name: 'read', input: { path: 'a.ts' } }] }, { text: 'x', fault: { status: 529 } }];
    const exchange = async (via: typeof fetch, stream: boolean, turn: number) => {
      const session = registerSession([turns[turn]!], { wire });
      const res = await via(`${session.baseURL}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, stream }) });
      // Ids carry the session id (m1, m2): one placeholder for both.
      return { status: res.status, type: res.headers.get('content-type'), body: (await res.text()).replaceAll(session.id, '<sid>') };
    };
    for (const [stream, turn] of [[false, 0], [true, 0], [false, 1]] as const) {
      const inProcess = await exchange(mockFetch, stream, turn);
      const viaMsw = await exchange(fetch, stream, turn);
      expect(inProcess.status).toBe(turn === 0 ? 200 : 529);
      expect(inProcess).toEqual(viaMsw);
    }
    user.resetHandlers();
  });
});
