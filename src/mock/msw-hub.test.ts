import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelCallError, type Message, type ModelRequest, type ToolUseBlock } from '../providers/types.js';
import { mockModel, registerSession, stopMockHub } from './msw-hub.js';
import type { Wire } from './wire-errors.js';

afterAll(() => stopMockHub());

const READ_TOOL = { name: 'read', description: 'Read a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };

function request(messages: Message[]): ModelRequest {
  return { system: 'You are a test.', messages, tools: [READ_TOOL], maxTokens: 1024 };
}

const ask: Message = { role: 'user', content: [{ type: 'text', text: 'read a.ts' }] };

function toolUses(content: ReadonlyArray<{ type: string }>): ToolUseBlock[] {
  return content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

function answer(uses: ToolUseBlock[], content = 'ok', isError = false): Message {
  return { role: 'user', content: uses.map((u) => ({ type: 'tool_result', tool_use_id: u.id, content, is_error: isError })) };
}

async function callError(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe.each(['anthropic', 'openai', 'responses'] as const)('the %s wire through the real SDK and the in-process fetch', (wire) => {
  it('runs a two-turn tool task: tool_use, then the final answer after the result', async () => {
    const { model, session } = mockModel(
      [{ text: 'Reading.', tool_use: [{ name: 'read', input: { path: 'a.ts' } }] }, { text: 'It exports foo.' }],
      { wire },
    );
    const first = await model.complete(request([ask]));
    expect(first.stopClass).toBe('tool_use');
    expect(first.content[0]).toEqual({ type: 'text', text: 'Reading.' });
    const uses = toolUses(first.content);
    expect(uses).toHaveLength(1);
    expect(uses[0]?.name).toBe('read');
    expect(uses[0]?.input).toEqual({ path: 'a.ts' });
    expect(uses[0]?.id).toBe(wire === 'anthropic' ? 'toolu_mock_1_0' : 'call_mock_1_0');

    const history: Message[] = [ask, { role: 'assistant', content: first.content }, answer(uses, 'export const foo = 1')];
    const second = await model.complete(request(history));
    expect(second.stopClass).toBe('end_turn');
    expect(second.stopReason).toBe({ anthropic: 'end_turn', openai: 'stop', responses: 'completed' }[wire]);
    expect(second.content).toEqual([{ type: 'text', text: 'It exports foo.' }]);
    if (wire === 'anthropic') {
      // The adapter marks cache breakpoints; the mock's prompt cache reads the first turn's prefix back.
      expect(first.usage.cache_write_tokens).toBeGreaterThan(0);
      expect(second.usage.cache_read_tokens).toBe(first.usage.cache_write_tokens);
      expect(second.usage.output_tokens).toBe(20);
    } else expect(second.usage).toEqual({ input_tokens: 100, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0 });

    // The mock saw the neutral history the harness sent, including the result.
    expect(session.requests.map((r) => r.turn)).toEqual([1, 2]);
    expect(session.requests[1]?.request?.messages).toEqual(history);
    expect(session.requests[1]?.request?.system).toBe('You are a test.');
    expect(session.requests[1]?.request?.tools.map((t) => t.name)).toEqual(['read']);
  });

  it('reports the request size it really sent in describeRequest', async () => {
    const { model, session } = mockModel([{ text: 'hi' }], { wire });
    const req = request([ask]);
    await model.complete(req);
    const info = model.describeRequest(req);
    expect(info.requestBytes).toBe(session.requests[0]?.bodyBytes);
    expect(info.toolsBytes).toBeGreaterThan(0);
    expect(info.toolsBytes).toBeLessThan(info.requestBytes);
  });

  it('returns parallel tool_use blocks of one turn in order, and accepts all results in one user message', async () => {
    const { model } = mockModel(
      [
        { tool_use: [{ name: 'read', input: { path: 'a' } }, { name: 'read', input: { path: 'b' } }, { name: 'grep', input: { q: 'x' }, id: 'fixed_id' }] },
        { text: 'done' },
      ],
      { wire },
    );
    const first = await model.complete(request([ask]));
    const uses = toolUses(first.content);
    expect(uses.map((u) => u.input)).toEqual([{ path: 'a' }, { path: 'b' }, { q: 'x' }]);
    const prefix = wire === 'anthropic' ? 'toolu_mock' : 'call_mock';
    expect(uses.map((u) => u.id)).toEqual([`${prefix}_1_0`, `${prefix}_1_1`, 'fixed_id']);
    const second = await model.complete(request([ask, { role: 'assistant', content: first.content }, answer(uses)]));
    expect(second.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('lets a rule turn react to an error result of a named tool', async () => {
    const script = [
      { tool_use: [{ name: 'read', input: { path: 'a' } }] },
      {
        rule: [
          { when: { any_error: true, tool: 'read' }, then: { text: 'read failed' } },
          { when: { contains: 'foo' }, then: { text: 'found foo' } },
          { then: { text: 'fallback' } },
        ],
      },
    ];
    const run = async (content: string, isError: boolean) => {
      const { model } = mockModel(script, { wire });
      const first = await model.complete(request([ask]));
      const history: Message[] = [ask, { role: 'assistant', content: first.content }, answer(toolUses(first.content), content, isError)];
      return (await model.complete(request(history))).content;
    };
    expect(await run('ENOENT', true)).toEqual([{ type: 'text', text: 'read failed' }]);
    expect(await run('const foo', false)).toEqual([{ type: 'text', text: 'found foo' }]);
    expect(await run('nothing here', false)).toEqual([{ type: 'text', text: 'fallback' }]);
  });

  it('rejects a tool_use without its result with the real 400, as ModelCallError invalid_request', async () => {
    const { model, session } = mockModel([{ tool_use: [{ name: 'read', input: {} }] }, { text: 'never' }], { wire });
    const first = await model.complete(request([ask]));
    const id = toolUses(first.content)[0]?.id ?? '';
    const orphaned: Message[] = [ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'text', text: 'go on' }] }];
    const error = await callError(model.complete(request(orphaned)));
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    const text = {
      anthropic: `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      openai: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${id}`,
      responses: `No tool output found for function call ${id}.`,
    };
    expect(error.message).toContain(text[wire]);
    expect(session.requests[1]?.status).toBe(400);
  });

  it('classifies explicit null, unknown and max_tokens stop reasons', async () => {
    const { model } = mockModel([{ text: 'a', stop_reason: null }], { wire });
    const nul = await model.complete(request([ask]));
    expect(nul.stopReason).toBeNull();
    expect(nul.stopClass).toBe('null');

    const odd = await mockModel([{ text: 'a', stop_reason: 'paused_for_lunch' }], { wire }).model.complete(request([ask]));
    expect(odd.stopReason).toBe('paused_for_lunch');
    expect(odd.stopClass).toBe('unknown');

    const cut = await mockModel([{ text: 'a', stop_reason: 'max_tokens' }], { wire }).model.complete(request([ask]));
    expect(cut.stopReason).toBe({ anthropic: 'max_tokens', openai: 'length', responses: 'max_output_tokens' }[wire]);
    expect(cut.stopClass).toBe('max_tokens');

    const refused = await mockModel([{ text: 'no', stop_reason: 'refusal' }], { wire }).model.complete(request([ask]));
    expect(refused.stopClass).toBe(wire === 'anthropic' ? 'refusal' : 'content_filter');
  });

  it('cuts the last tool call on cut_tool_input and stops with max_tokens', async () => {
    const { model } = mockModel(
      [{ tool_use: [{ name: 'read', input: { path: 'a' } }, { name: 'write', input: { path: 'b.ts', content: 'x'.repeat(40) } }], cut_tool_input: true }],
      { wire },
    );
    const res = await model.complete(request([ask]));
    expect(res.stopClass).toBe('max_tokens');
    const [intact, cut] = toolUses(res.content);
    expect(intact?.input).toEqual({ path: 'a' });
    expect(intact?.inputError).toBeUndefined();
    if (wire === 'anthropic') {
      // The JSON wire can only carry an object: the unfinished `content` key is gone.
      expect(cut?.input).toEqual({ path: 'b.ts' });
    } else {
      expect(cut?.input).toEqual({});
      expect(cut?.inputError?.reason).toBe('malformed');
      expect(JSON.stringify({ path: 'b.ts', content: 'x'.repeat(40) }).startsWith(cut?.inputError?.raw ?? '-')).toBe(true);
    }
  });

  it('answers a request past the last turn with a 400 naming the turn', async () => {
    const { model } = mockModel([{ tool_use: [{ name: 'read', input: {} }] }], { wire });
    const first = await model.complete(request([ask]));
    const error = await callError(model.complete(request([ask, { role: 'assistant', content: first.content }, answer(toolUses(first.content))])));
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.message).toContain('mock script exhausted: request for turn 2 but the script has 1 turns');
  });

  it('classifies 429 as rate_limited with retry-after parsed, and 529/500 as retryable', async () => {
    const { model, session } = mockModel([{ text: 'a' }], { wire });
    session.failNext({ status: 429, headers: { 'retry-after': '7' } });
    const limited = await callError(model.complete(request([ask])));
    expect([limited.kind, limited.status, limited.retryAfterMs, limited.retryable]).toEqual(['rate_limited', 429, 7000, true]);

    session.failNext({ status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '9' } });
    expect((await callError(model.complete(request([ask])))).retryAfterMs).toBe(1500);

    session.failNext({ status: 529 });
    const overloaded = await callError(model.complete(request([ask])));
    expect([overloaded.kind, overloaded.retryable]).toEqual(['overloaded', true]);

    session.failNext({ status: 500 });
    expect((await callError(model.complete(request([ask])))).kind).toBe('server_error');

    // After the injected failures the script itself still answers turn 1.
    expect((await model.complete(request([ask]))).content).toEqual([{ type: 'text', text: 'a' }]);
  });
});

describe('malformed OpenAI arguments', () => {
  it('turns empty, malformed and non-object arguments into input {} with inputError, never a throw', async () => {
    const { model } = mockModel(
      [{ tool_use: [{ name: 'a', raw_arguments: '' }, { name: 'b', raw_arguments: '{"path": "x' }, { name: 'c', raw_arguments: '[1,2]' }, { name: 'd', raw_arguments: '{"ok":true}' }] }],
      { wire: 'openai' },
    );
    const uses = toolUses((await model.complete(request([ask]))).content);
    expect(uses.map((u) => u.inputError?.reason ?? null)).toEqual(['empty', 'malformed', 'not_object', null]);
    expect(uses.map((u) => u.input)).toEqual([{}, {}, {}, { ok: true }]);
    expect(uses[1]?.inputError?.raw).toBe('{"path": "x');
  });

  it('caps the raw arguments kept in inputError at 200 characters', async () => {
    const { model } = mockModel([{ tool_use: [{ name: 'a', raw_arguments: '{' + 'x'.repeat(500) }] }], { wire: 'openai' });
    const [use] = toolUses((await model.complete(request([ask]))).content);
    expect(use?.inputError?.raw).toHaveLength(200);
  });
});

describe('registered sessions', () => {
  it('routes concurrent sessions by their own base URL', async () => {
    const a = mockModel([{ text: 'from a' }, { text: 'a2' }], { wire: 'anthropic' });
    const b = mockModel([{ text: 'from b' }], { wire: 'openai' });
    const c = mockModel([{ text: 'from c' }], { wire: 'anthropic' });
    const results = await Promise.all([a, b, c].map(({ model }) => model.complete(request([ask]))));
    expect(results.map((r) => r.content)).toEqual([[{ type: 'text', text: 'from a' }], [{ type: 'text', text: 'from b' }], [{ type: 'text', text: 'from c' }]]);
    expect([a, b, c].map(({ session }) => session.requests.length)).toEqual([1, 1, 1]);
    expect(new Set([a, b, c].map(({ session }) => session.baseURL)).size).toBe(3);
  });

  it('gives each wire the base URL its SDK expects', () => {
    const a = registerSession([{ text: 'x' }], { wire: 'anthropic' });
    const o = registerSession([{ text: 'x' }], { wire: 'openai' });
    expect(a.baseURL).toMatch(/^https:\/\/mock\.faultline\.invalid\/s\/[^/]+$/);
    expect(o.baseURL).toBe(`${o.baseURL.slice(0, -3)}/v1`);
    expect(o.baseURL.endsWith('/v1')).toBe(true);
  });

  it('answers 404 once a session is closed', async () => {
    const { model, session } = mockModel([{ text: 'x' }], { wire: 'anthropic' });
    session.close();
    const error = await callError(model.complete(request([ask])));
    expect([error.kind, error.status]).toEqual(['invalid_request', 404]);
  });

  it('passes requests for other hosts through to the real network', async () => {
    registerSession([{ text: 'x' }], { wire: 'anthropic' });
    const server = createServer((_req, res) => res.end('real server'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', body: '{}' })).text()).toBe('real server');
    } finally {
      server.close();
    }
  });
});

describe.each(['anthropic', 'openai', 'responses'] as const)('a registered session streaming on the %s wire', (wire) => {
  it('streams a reply read to the end, paced by chunk_delay_ms', async () => {
    const { model, session } = mockModel([{ text: 'streamed', tool_use: [{ name: 'read', input: { path: 'a.ts' } }], fault: { chunk_delay_ms: 2 } }], { wire, stream: true });
    const reported: string[] = [];
    const response = await model.complete(request([ask]), { onToolUse: (b) => reported.push(b.name) });
    session.close();
    expect(response).toMatchObject({ stopClass: 'tool_use', content: [{ type: 'text', text: 'streamed' }, { type: 'tool_use', input: { path: 'a.ts' } }] });
    expect(response.ttftMs).not.toBeNull();
    expect(reported).toEqual(['read']);
    expect(session.requests[0]?.request?.stream).toBe(true);
  });
});

describe('a registered session with wire faults', () => {
  it('answers a reset as a dropped connection: a retryable connection error', async () => {
    const { model, session } = mockModel([{ text: 'x', fault: { reset: true } }], { wire: 'anthropic' });
    const error = await callError(model.complete(request([ask])));
    session.close();
    expect(error).toMatchObject({ kind: 'connection', retryable: true });
  });

  it('applies a status fault once with `times`, then answers normally', async () => {
    const { model, session } = mockModel([{ text: 'ok', fault: { status: 529, times: 1 } }], { wire: 'openai' });
    const error = await callError(model.complete(request([ask])));
    const response = await model.complete(request([ask]));
    session.close();
    expect(error).toMatchObject({ kind: 'overloaded', status: 529 });
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(session.requests.map((r) => [r.status, r.attempt])).toEqual([[529, 1], [200, 2]]);
  });
});
