/**
 * The Gemini wire: the official @google/genai client (raw, and through the
 * GeminiModel adapter) against the loopback mock over real sockets. What the
 * mock sends is what the API sends: candidates, functionCall parts with ids,
 * finishReason values, usageMetadata, the error envelope with RetryInfo, SSE
 * and JSON-array streams, and the API's 400 texts for bad requests.
 */
import { getEventListeners } from 'node:events';
import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../src/mock/loopback-server.js';
import { mockAdapter } from '../../src/mock/mock-adapter.js';
import { ModelCallError, type Message, type ModelRequest, type ToolUseBlock } from '../../src/providers/types.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});

const READ = { name: 'read', description: 'Read a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' } };
const ask: Message = { role: 'user', content: [{ type: 'text', text: 'read a.ts' }] };
const request = (messages: Message[]): ModelRequest => ({ system: 'You are a test.', messages, tools: [READ], maxTokens: 1024 });
const uses = (content: ReadonlyArray<{ type: string }>) => content.filter((b): b is ToolUseBlock => b.type === 'tool_use');

function model(script: Parameters<LoopbackServer['register']>[0], stream = false) {
  const session = server.register(script, { wire: 'gemini' });
  return { session, model: mockAdapter({ wire: 'gemini', baseURL: session.baseURL, stream }) };
}

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe.each([false, true])('the Gemini wire through @google/genai (stream %s)', (stream) => {
  it('runs a tool turn then the answer: functionCall with id, functionResponse paired, STOP, usage', async () => {
    const { model: m, session } = model([{ text: 'Reading.', tool_use: [{ name: 'read', input: { path: 'a.ts' } }] }, { text: 'It exports foo.', usage: { input_tokens: 50, output_tokens: 7, cache_read_tokens: 10 } }], stream);
    const first = await m.complete(request([ask]));
    expect(first.stopReason).toBe('STOP');
    expect(first.stopClass).toBe('tool_use');
    expect(first.content[0]).toEqual({ type: 'text', text: 'Reading.' });
    expect(uses(first.content)).toMatchObject([{ id: 'call_mock_1_0', name: 'read', input: { path: 'a.ts' } }]);
    const history: Message[] = [ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_mock_1_0', content: 'export const foo = 1', is_error: false }] }];
    const second = await m.complete(request(history));
    expect(second).toMatchObject({ stopReason: 'STOP', stopClass: 'end_turn', content: [{ type: 'text', text: 'It exports foo.' }] });
    expect(second.usage).toEqual({ input_tokens: 50, output_tokens: 7, cache_read_tokens: 10, cache_write_tokens: 0 });
    // The mock decoded what the SDK sent back into the same neutral history.
    expect(session.requests.map((r) => [r.status, r.turn, r.request?.stream])).toEqual([[200, 1, stream], [200, 2, stream]]);
    expect(session.requests[1]?.request?.messages).toEqual(history);
    expect(session.requests[1]?.request?.system).toBe('You are a test.');
    expect(session.requests[0]?.path).toMatch(stream ? /\/v1beta\/models\/gemini-mock:streamGenerateContent\?alt=sse$/ : /\/v1beta\/models\/gemini-mock:generateContent$/);
  });

  it('maps finishReason values: MAX_TOKENS drops the cut call, SAFETY and a blocked prompt are content_filter, MALFORMED_FUNCTION_CALL and unknown fail closed, null stays null', async () => {
    const cut = await model([{ tool_use: [{ name: 'read', input: { path: 'a' } }, { name: 'read', input: { path: 'b'.repeat(30) } }], cut_tool_input: true }], stream).model.complete(request([ask]));
    expect([cut.stopReason, cut.stopClass]).toEqual(['MAX_TOKENS', 'max_tokens']);
    expect(uses(cut.content).map((u) => u.input)).toEqual([{ path: 'a' }]);
    const safety = await model([{ text: 'no', stop_reason: 'refusal' }], stream).model.complete(request([ask]));
    expect([safety.stopReason, safety.stopClass]).toEqual(['SAFETY', 'content_filter']);
    const blocked = await model([{ text: 'x', stop_reason: 'prompt_blocked' }], stream).model.complete(request([ask]));
    expect([blocked.stopReason, blocked.stopClass, blocked.content]).toEqual(['PROMPT_SAFETY', 'content_filter', []]);
    const malformed = await model([{ tool_use: [{ name: 'read', raw_arguments: '{"path": "x' }] }], stream).model.complete(request([ask]));
    expect([malformed.stopReason, malformed.stopClass, uses(malformed.content)]).toEqual(['MALFORMED_FUNCTION_CALL', 'unknown', []]);
    const odd = await model([{ text: 'a', stop_reason: 'paused_for_lunch' }], stream).model.complete(request([ask]));
    expect([odd.stopReason, odd.stopClass]).toEqual(['paused_for_lunch', 'unknown']);
    const none = await model([{ text: 'a', stop_reason: null }], stream).model.complete(request([ask]));
    expect([none.stopReason, none.stopClass]).toEqual([null, 'null']);
  });

  it('reads a 429 with RetryInfo as rate_limited with the retry delay, 503 as retryable, 400 as not', async () => {
    const limited = await failure(model([{ text: 'a', fault: { status: 429, headers: { 'retry-after-ms': '1500' } } }], stream).model.complete(request([ask])));
    expect([limited.kind, limited.status, limited.retryAfterMs, limited.retryable]).toEqual(['rate_limited', 429, 1500, true]);
    const unavailable = await failure(model([{ text: 'a', fault: { status: 503 } }], stream).model.complete(request([ask])));
    expect([unavailable.status, unavailable.retryable]).toEqual([503, true]);
    const bad = await failure(model([{ text: 'a', fault: { status: 400 } }], stream).model.complete(request([ask])));
    expect([bad.kind, bad.retryable]).toEqual(['invalid_request', false]);
  });

  it('leaves no listener on the caller\'s signal after a call (a session\'s signal lives for every model call)', async () => {
    const { model: m } = model([{ text: 'a', repeat: true }], stream);
    const session = new AbortController();
    for (let i = 0; i < 3; i++) await m.complete({ ...request([ask]), signal: session.signal });
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('a connection cut mid-answer is retryable, never a clean turn', async () => {
    const error = await failure(model([{ text: 'a'.repeat(200), tool_use: [{ name: 'read', input: { path: 'a' } }], fault: { cut_after_events: 2 } }], stream).model.complete(request([ask])));
    expect(error.retryable).toBe(true);
    expect(['stream_interrupted', 'connection']).toContain(error.kind);
  });
});

describe('the Gemini wire as the API spells it', () => {
  const post = async (path: string, body: unknown, sid: string) =>
    fetch(`${server.origin}/s/${sid}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' }, body: JSON.stringify(body) });
  const user = (text: string) => ({ role: 'user', parts: [{ text }] });

  it('answers the error envelope with code, status and a RetryInfo detail, and no Retry-After header', async () => {
    const { session } = model([{ text: 'a', fault: { status: 429, headers: { 'retry-after': '27' } } }]);
    const res = await post('/v1beta/models/gemini-2.5-flash:generateContent', { contents: [user('hi')] }, session.id);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(await res.json()).toEqual({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '27s' }] } });
  });

  it('puts an overload (529 in a script) on this wire as 503 UNAVAILABLE, the API\'s overload', async () => {
    const { session } = model([{ text: 'a', fault: { status: 529 } }]);
    const res = await post('/v1beta/models/m:generateContent', { contents: [user('hi')] }, session.id);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('UNAVAILABLE');
  });

  it('streams a JSON array without alt=sse, each element a whole response, the last with finishReason and usage', async () => {
    const { session } = model([{ text: 'hello there', tool_use: [{ name: 'read', input: { path: 'a' } }] }]);
    const res = await post('/v1beta/models/m:streamGenerateContent', { contents: [user('hi')] }, session.id);
    const chunks = JSON.parse(await res.text()) as Array<{ candidates: Array<{ content: { parts: unknown[] }; finishReason?: string }>; usageMetadata: Record<string, number> }>;
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({ promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 });
    expect(chunks.flatMap((c) => c.candidates[0]?.content.parts ?? [])).toContainEqual({ functionCall: { id: 'call_mock_1_0', name: 'read', args: { path: 'a' } } });
  });

  it('puts an in-stream error where a chunk would be (SSE), which the SDK throws as ApiError', async () => {
    const { session } = model([{ text: 'a'.repeat(100), fault: { sse_error: { after_events: 1, type: 'overloaded_error' } } }]);
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: `${server.origin}/s/${session.id}` } });
    const read = async () => {
      for await (const _chunk of await ai.models.generateContentStream({ model: 'm', contents: 'hi' })) void _chunk;
    };
    const error = await read().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
  });

  it.each([
    ['no contents', {}, '* GenerateContentRequest.contents: contents is not specified\n'],
    ['a bad role', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'Please use a valid role: user, model.'],
    ['empty parts', { contents: [{ role: 'user', parts: [] }] }, '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n'],
    ['a call turn first', { contents: [{ role: 'model', parts: [{ functionCall: { name: 'read', args: {} } }] }] }, 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.'],
    ['a response with no call before it', { contents: [user('hi'), { role: 'user', parts: [{ functionResponse: { name: 'read', response: {} } }] }] }, 'Please ensure that function response turn comes immediately after a function call turn.'],
    ['fewer responses than calls', { contents: [user('hi'), { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] }] }, 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.'],
    ['a call turn answered by text', { contents: [user('hi'), { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }] }, user('go on')] }, 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.'],
    ['additionalProperties in parameters', { contents: [user('hi')], tools: [{ functionDeclarations: [{ name: 'read', parameters: { type: 'object', properties: { p: { type: 'string' } }, additionalProperties: false } }] }] }, `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`],
    ['a type list in a property', { contents: [user('hi')], tools: [{ functionDeclarations: [{ name: 'read', parameters: { type: 'object', properties: { p: { type: ['string', 'null'] } } } }] }] }, `Invalid JSON payload received. Proto field is not repeating, cannot start list. at 'tools[0].function_declarations[0].parameters.properties[0].value.type'`],
    ['a bad function name', { contents: [user('hi')], tools: [{ functionDeclarations: [{ name: '9read' }] }] }, '* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:) or dashes (-), with a maximum length of 64.\n'],
    ['an unknown field', { contents: [user('hi')], temperature: 0 }, 'Invalid JSON payload received. Unknown name "temperature": Cannot find field.'],
  ])('refuses %s with the API\'s 400 INVALID_ARGUMENT text', async (_name, body, message) => {
    const { session } = model([{ text: 'a' }]);
    const res = await post('/v1beta/models/m:generateContent', body, session.id);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
  });

  it('accepts what the API accepts: parametersJsonSchema with any JSON Schema, default/example/title, lower-case types, consecutive user turns', async () => {
    const { session } = model([{ text: 'a' }]);
    const tools = [{ functionDeclarations: [{ name: 'a', parametersJsonSchema: { type: 'object', additionalProperties: false, $defs: {} } }, { name: 'b', parameters: { type: 'object', title: 'B', properties: { n: { type: 'integer', default: 1, example: 2 } } } }] }];
    const res = await post('/v1beta/models/m:generateContent', { contents: [user('hi'), user('again')], tools, generationConfig: { maxOutputTokens: 10 } }, session.id);
    expect(res.status).toBe(200);
    expect(session.requests[0]?.request?.tools.map((t) => t.name)).toEqual(['a', 'b']);
  });
});

describe('Gemini function responses are paired by id first', () => {
  it('reads a response whose id no call has as an orphan, and the echoed ones as their calls\' (a retry that kept the broken attempt\'s result)', async () => {
    const { readTranscript } = await import('../../src/mock/lab/transcript.js');
    const { decodeGemini } = await import('../../src/mock/decode-gemini.js');
    const call = (id: string) => ({ functionCall: { id, name: 'read_file', args: {} } });
    const answer = (id?: string) => ({ functionResponse: { ...(id ? { id } : {}), name: 'read_file', response: { output: id ?? 'x' } } });
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, { role: 'model', parts: [call('c0'), call('c1')] }, { role: 'user', parts: [answer('c0_cut1'), answer('c0'), answer('c1')] }] };
    const transcript = readTranscript('gemini', JSON.stringify(body));
    expect(transcript?.messages[2]?.results.map((r) => r.id)).toEqual(['c0_cut1', 'c0', 'c1']);
    const decoded = decodeGemini(body, { model: 'm', stream: null });
    expect(decoded.messages[2]?.content.map((b) => (b.type === 'tool_result' ? b.tool_use_id : b.type))).toEqual(['c0_cut1', 'c0', 'c1']);
    // Without ids (a client of an API that sent none), responses pair with the calls by name, in order.
    const bare = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] }, { role: 'user', parts: [answer()] }] };
    const decodedBare = decodeGemini(bare, { model: 'm', stream: null });
    const use = decodedBare.messages[1]?.content[0];
    expect(decodedBare.messages[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: use?.type === 'tool_use' ? use.id : '-' });
  });
});
