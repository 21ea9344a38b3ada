/** Side requests over the loopback server: answered plausibly, recorded apart, never taking a turn of the script. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(() => server.close());

const script = [{ tool_use: [{ name: 'read', input: { path: 'a' } }] }, { text: 'done' }];
const tools = [{ name: 'read', input_schema: { type: 'object' } }];
// Test bodies are read field by field; their shape is what is under test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const post = async (url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ json(): Promise<Body>; status: number }> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const messages = (extra: object = {}) => ({ model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'Fix the bug.' }], ...extra });

describe('side requests', () => {
  it('answers a title call, a HEAD probe, count_tokens and /v1/models without consuming the first turn', async () => {
    const session = server.register(script, { wire: null, classifySide: true, prompt: 'Fix the bug.' });
    const root = session.baseURLs.anthropic;
    const title = await post(`${root}/v1/messages`, { ...messages(), system: 'Generate a short title for this conversation.' });
    expect((await title.json()).content).toEqual([{ type: 'text', text: 'Scripted lab session' }]);
    expect((await fetch(`${root}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    const counted = await (await post(`${root}/v1/messages/count_tokens?beta=true`, messages({ tools }), { 'anthropic-version': '2023-06-01' })).json();
    expect(counted.input_tokens).toBeGreaterThan(0);
    const models = (await (await fetch(`${session.baseURLs.openai}/models`)).json()) as Body;
    expect(models).toMatchObject({ object: 'list', data: [{ object: 'model' }] });
    const main = await (await post(`${root}/v1/messages?beta=true`, messages({ tools }))).json();
    expect(main.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'read' })]);
    expect(session.requests.map((r) => r.side)).toEqual(['no_tools', 'probe', 'count_tokens', 'models', null]);
    expect(session.requests.at(-1)).toMatchObject({ turn: 1, attempt: 1 });
    session.close();
  });

  it('tells a second fresh conversation (another first message) from the scripted one', async () => {
    const session = server.register(script, { wire: null, classifySide: true });
    await post(`${session.baseURLs.anthropic}/v1/messages`, messages({ tools }));
    const other = await (await post(`${session.baseURLs.anthropic}/v1/messages`, { ...messages({ tools }), messages: [{ role: 'user', content: 'Summarize: ...' }] })).json();
    expect(other.content[0].type).toBe('text');
    expect(session.requests.map((r) => r.side)).toEqual([null, 'other_conversation']);
    session.close();
  });

  it('lets a script turn with `match` answer an interleaved request by content, outside the positional turns', async () => {
    const keyed = [{ match: { system: 'title' }, text: 'Bug fix' }, ...script];
    const session = server.register(keyed, { wire: null, classifySide: true });
    const title = await (await post(`${session.baseURLs.anthropic}/v1/messages`, { ...messages({ tools }), system: 'Write a title' })).json();
    expect(title.content).toEqual([{ type: 'text', text: 'Bug fix' }]);
    const main = await (await post(`${session.baseURLs.anthropic}/v1/messages`, messages({ tools }))).json();
    expect(main.content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_mock_1_0' });
    expect(session.requests.map((r) => r.side)).toEqual(['matched', null]);
    session.close();
  });

  it('keeps the request check strict about the conversation itself: without classification every request is a turn', async () => {
    const session = server.register(script, { wire: 'anthropic' });
    const reply = await (await post(`${session.baseURL}/v1/messages`, messages())).json();
    expect(reply.content[0].type).toBe('tool_use');
    session.close();
  });

  it('records bodies with secrets taken out of the headers', async () => {
    const session = server.register(script, { wire: null, recordBodies: true });
    await post(`${session.baseURLs.anthropic}/v1/messages`, messages({ tools }), { 'x-api-key': 'sk-ant-secret', authorization: 'Bearer sk-x', 'anthropic-beta': 'tools-2024' });
    const [record] = session.requests;
    expect(record?.headers).toMatchObject({ 'x-api-key': '[redacted]', authorization: '[redacted]', 'anthropic-beta': 'tools-2024' });
    expect(JSON.stringify(record?.headers)).not.toContain('sk-');
    expect(JSON.parse(record?.bodyText ?? '{}').model).toBe('m');
    session.close();
  });
});
