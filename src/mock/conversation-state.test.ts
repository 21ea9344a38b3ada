/**
 * The lab's mock reads each request against what it issued, over the loopback
 * server: a harness's canned assistant turn does not shift the script, a
 * request that carries the history under another system prompt is a side
 * request, a request after the final answer is answered 200 and recorded
 * apart, a broken attempt kept in the history is retried, not skipped, and
 * text before the results is the Messages API's 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(() => server.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const tools = [{ name: 'read', input_schema: { type: 'object' } }];
const script = [{ tool_use: [{ name: 'read', input: { path: 'a' } }], fault: { sse_error: { after_events: 'inside_tool_input' as const }, times: 1 } }, { text: 'done' }];
const post = async (url: string, body: unknown): Promise<{ status: number; text: string; json: Body }> => {
  const r = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await r.text();
  let json: Body = null;
  try {
    json = JSON.parse(text);
  } catch {
    // an SSE body
  }
  return { status: r.status, text, json };
};
const body = (messages: object[], extra: object = {}) => ({ model: 'm', max_tokens: 50, system: 'You are a coding agent.', tools, messages, ...extra });
const prompt = { role: 'user', content: 'Read a.' };
const call = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'read', input: { path: 'a' } }] });
const result = (id: string, content = 'alpha') => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] });

describe('the conversation read against what the mock issued', () => {
  it('plays turn 1 and its fault after a canned assistant turn, retries a broken attempt kept in the history, and answers past the end', async () => {
    const session = server.register(script, { wire: null, classifySide: true, prompt: 'Read a.' });
    const url = session.baseURLs.anthropic;
    const canned = [{ role: 'user', content: 'Here is the context.' }, { role: 'assistant', content: 'Got it. Thanks for the context!' }, prompt];
    // Turn 1, streamed: the SSE error lands inside the call's arguments.
    const broken = await post(url, body(canned, { stream: true }));
    expect(broken.text).toContain('event: error');
    expect(broken.text).not.toContain('message_delta');
    expect(session.requests.at(-1)).toMatchObject({ turn: 1, attempt: 1, side: null });
    // The harness keeps the broken attempt (its partial call answered as aborted) and asks again: still turn 1, answered 200.
    const kept = [...canned, call('toolu_mock_1_0_cut1'), result('toolu_mock_1_0_cut1', 'Tool execution aborted'), { role: 'user', content: 'Continue.' }];
    const retry = await post(url, body(kept));
    expect(retry.status).toBe(200);
    expect(retry.json.content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_mock_1_0' });
    expect(session.requests.at(-1)).toMatchObject({ turn: 1, attempt: 2 });
    // A memory extraction over the history: another system prompt and other tools.
    const extraction = [...kept, call('toolu_mock_1_0'), result('toolu_mock_1_0'), { role: 'user', content: 'Extract memories.' }];
    const memory = await post(url, { ...body(extraction), system: 'Extract durable memories.', tools: [{ name: 'save_memory', input_schema: { type: 'object' } }] });
    expect(memory.status).toBe(200);
    expect(session.requests.at(-1)?.side).toBe('side_conversation');
    // Turn 2 (the final answer), then a request past it: answered 200, recorded apart.
    const history = [...kept, call('toolu_mock_1_0'), result('toolu_mock_1_0')];
    expect((await post(url, body(history))).json.content).toEqual([{ type: 'text', text: 'done' }]);
    const after = await post(url, body([...history, { role: 'assistant', content: 'done' }, { role: 'user', content: 'Anything else?' }]));
    expect(after.status).toBe(200);
    expect(session.requests.map((r) => [r.turn, r.side])).toEqual([
      [1, null],
      [1, null],
      [2, 'side_conversation'],
      [2, null],
      [3, 'after_end'],
    ]);
    session.close();
  });

  it('answers text before the results with the Messages API 400', async () => {
    const session = server.register([{ tool_use: [{ name: 'read', input: {} }] }, { text: 'done' }], { wire: 'anthropic' });
    const before = await post(session.baseURL, body([prompt, call('toolu_mock_1_0'), { role: 'user', content: [{ type: 'text', text: 'Here you go.' }, { type: 'tool_result', tool_use_id: 'toolu_mock_1_0', content: 'x' }] }]));
    expect(before.status).toBe(400);
    expect(before.json.error.message).toBe(
      'messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
    );
    const after = await post(session.baseURL, body([prompt, call('toolu_mock_1_0'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_mock_1_0', content: 'x' }, { type: 'text', text: 'A reminder.' }] }]));
    expect(after.status).toBe(200);
    session.close();
  });
});
