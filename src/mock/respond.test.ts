import { describe, expect, it } from 'vitest';
import { respond } from './respond.js';
import { ModelScript } from './script.js';

const script = ModelScript.parse([{ text: 'hello' }]);
const anthropicBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...extra });
const openaiBody = (extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('the mount-neutral respond()', () => {
  it('answers a valid Anthropic request with 200 JSON and records the neutral request', () => {
    const out = respond({ wire: 'anthropic', bodyText: anthropicBody({ system: 'sys' }), script, sessionId: 's1' });
    expect(out.reply.status).toBe(200);
    expect(out.reply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(out.reply.body)).toMatchObject({ id: 'msg_mock_s1_1', content: [{ type: 'text', text: 'hello' }], stop_reason: 'end_turn' });
    expect(out.request).toMatchObject({ wire: 'anthropic', model: 'm', system: 'sys', maxTokens: 10, stream: false });
    expect(out.turn).toBe(1);
  });

  it('answers unparseable JSON with a 400 in each wire envelope', () => {
    const a = respond({ wire: 'anthropic', bodyText: '{oops', script, sessionId: 's' });
    expect(a.reply.status).toBe(400);
    expect(JSON.parse(a.reply.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const o = respond({ wire: 'openai', bodyText: '{oops', script, sessionId: 's' });
    expect(JSON.parse(o.reply.body)).toMatchObject({ error: { type: 'invalid_request_error', param: null, code: null } });
  });

  it('rejects a body missing required fields', () => {
    const out = respond({ wire: 'anthropic', bodyText: JSON.stringify({ model: 'm', messages: [] }), script, sessionId: 's' });
    expect(out.reply.status).toBe(400);
    expect(JSON.parse(out.reply.body).error.message).toMatch(/^max_tokens: /);
  });

  it('rejects a malformed tool_use block instead of silently ignoring it', () => {
    const body = anthropicBody({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', name: 'read', input: {} }] },
      ],
    });
    expect(respond({ wire: 'anthropic', bodyText: body, script, sessionId: 's' }).reply.status).toBe(400);
  });

  it('names the offending field as param when an OpenAI body has the wrong shape, in the API words', () => {
    const out = respond({ wire: 'openai', bodyText: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 3 }] }), script, sessionId: 's' });
    expect(out.reply.status).toBe(400);
    expect(JSON.parse(out.reply.body).error).toMatchObject({
      param: 'messages[0].content',
      code: 'invalid_type',
      message: "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got an integer instead.",
    });
  });

  it('answers OpenAI pairing violations with the real param', () => {
    const body = openaiBody({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'x', content: 'r' }] });
    const out = respond({ wire: 'openai', bodyText: body, script, sessionId: 's' });
    expect(out.reply.status).toBe(400);
    expect(JSON.parse(out.reply.body).error).toMatchObject({ type: 'invalid_request_error', param: 'messages.[1].role', code: null });
  });

  it('reads the OpenAI error prefix back as is_error and folds tool messages into one user message', () => {
    const body = openaiBody({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'r', arguments: '{"p":1}' } }, { id: 'b', type: 'function', function: { name: 'r', arguments: '' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'fine' },
        { role: 'tool', tool_call_id: 'b', content: 'Error: bad input' },
      ],
      max_completion_tokens: 7,
    });
    const out = respond({ wire: 'openai', bodyText: body, script: ModelScript.parse([{ text: '1' }, { text: '2' }]), sessionId: 's' });
    expect(out.request?.system).toBe('sys');
    expect(out.request?.maxTokens).toBe(7);
    expect(out.request?.messages[1]).toMatchObject({ role: 'assistant', content: [{ input: { p: 1 } }, { input: {}, inputError: { reason: 'empty' } }] });
    expect(out.request?.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'fine', is_error: false },
        { type: 'tool_result', tool_use_id: 'b', content: 'Error: bad input', is_error: true },
      ],
    });
    expect(JSON.parse(out.reply.body).choices[0].message.content).toBe('2');
  });

  it('answers a streaming request with SSE events: Anthropic with event lines, OpenAI ending in [DONE]', () => {
    const a = respond({ wire: 'anthropic', bodyText: anthropicBody({ stream: true }), script, sessionId: 's' });
    expect(a.reply.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(a.reply.chunks?.[0]).toMatch(/^event: message_start\ndata: /);
    expect(a.reply.chunks?.at(-1)).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    const o = respond({ wire: 'openai', bodyText: openaiBody({ stream: true }), script, sessionId: 's' });
    expect(o.reply.chunks?.at(-1)).toBe('data: [DONE]\n\n');
    expect(o.reply.body).toBe(o.reply.chunks?.join(''));
  });

  it('applies a fault with `times` only to the first attempts at its turn', () => {
    const faulty = ModelScript.parse([{ text: 'hello', fault: { status: 429, headers: { 'retry-after-ms': '200' }, times: 1 } }]);
    let attempts = 0;
    const nextAttempt = () => ++attempts;
    const first = respond({ wire: 'anthropic', bodyText: anthropicBody(), script: faulty, sessionId: 's', nextAttempt });
    expect(first.reply.status).toBe(429);
    expect(first.reply.headers['retry-after-ms']).toBe('200');
    expect(JSON.parse(first.reply.body)).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.any(String) } });
    const second = respond({ wire: 'anthropic', bodyText: anthropicBody(), script: faulty, sessionId: 's', nextAttempt });
    expect([second.reply.status, second.attempt]).toEqual([200, 2]);
  });

  it('turns transport faults into a plan for the mount instead of a body', () => {
    const cut = ModelScript.parse([{ text: 'hello', fault: { cut_after_events: 3, chunk_delay_ms: 5 } }]);
    const out = respond({ wire: 'openai', bodyText: openaiBody({ stream: true }), script: cut, sessionId: 's' });
    expect(out.transport).toMatchObject({ cutAfterChunks: 3, chunkDelayMs: 5, reset: false });
    const json = respond({ wire: 'openai', bodyText: openaiBody(), script: cut, sessionId: 's' });
    // A JSON body is cut in half: headers and the first half go out, then the connection drops.
    expect(json.transport.cutAfterChunks).toBe(1);
    expect(json.reply.chunks?.join('')).toBe(json.reply.body);
  });
});
