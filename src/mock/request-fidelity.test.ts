/**
 * The request check is as permissive as the real APIs: the shapes real
 * harnesses send (Claude Code, opencode, the OpenAI Agents SDK, LangChain, the
 * AI SDK) pass, and what the APIs reject is rejected with their wording.
 */
import { describe, expect, it } from 'vitest';
import { respond } from './respond.js';
import { ModelScript } from './script.js';

const script = ModelScript.parse([{ tool_use: [{ name: 'read', input: { path: 'a' } }] }, { text: 'done' }]);
const ask = (wire: 'anthropic' | 'openai' | 'responses', body: unknown) => respond({ wire, bodyText: JSON.stringify(body), script, sessionId: 's' });
const errorOf = (out: ReturnType<typeof respond>) => JSON.parse(out.reply.body).error;

const claudeCodeLike = {
  model: 'claude-sonnet-4-5',
  max_tokens: 32000,
  stream: true,
  system: [
    { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    { type: 'text', text: 'Environment: linux' },
  ],
  metadata: { user_id: 'u_1' },
  thinking: { type: 'enabled', budget_tokens: 4000 },
  context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
  tools: [
    { name: 'Read', description: 'Read a file', input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { file_path: { type: 'string' } } } },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: '<system-reminder>x</system-reminder>' }, { type: 'text', text: 'read a', cache_control: { type: 'ephemeral' } }] },
    { role: 'system', content: 'Mid-conversation reminder.' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should read it.', signature: 'sig' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'tool_use', id: 'toolu_mock_1_0', name: 'Read', input: { file_path: 'a' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_mock_1_0', content: [{ type: 'text', text: 'ok' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }] },
  ],
};

describe('the Anthropic request check', () => {
  it('accepts what Claude Code sends: system blocks with cache_control ttl, role system messages, thinking, server tools, metadata', () => {
    const out = ask('anthropic', claudeCodeLike);
    expect(out.reply.status).toBe(200);
    expect(out.turn).toBe(2);
    expect(out.request?.system).toBe('You are Claude Code.\nEnvironment: linux');
  });

  it('merges consecutive user messages as the API does, so results split over two user messages still pair', () => {
    const split = {
      model: 'm',
      max_tokens: 10,
      tools: [{ name: 'read', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'read', input: {} }, { type: 'tool_use', id: 'b', name: 'read', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'y' }] },
      ],
    };
    const out = ask('anthropic', split);
    expect(out.reply.status).toBe(200);
    expect(out.request?.messages.at(-1)?.content).toHaveLength(2);
  });

  it.each([
    [{ model: 'm', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Field required'],
    [{ model: 'm', max_tokens: 5, messages: [] }, 'messages: at least one message is required'],
    [{ model: 'm', max_tokens: 5, messages: [{ role: 'robot', content: 'x' }] }, "messages.0.role: Input should be 'user', 'assistant' or 'system'"],
    [{ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'messages: text content blocks must be non-empty'],
    [{ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [] }] }, 'messages.0: all messages must have non-empty content except for the optional final assistant message'],
    [
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'bad id!', name: 'r', input: {} }] }] },
      "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    ],
    [
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'r', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'y' }] }] },
      'Requests which include `tool_use` or `tool_result` blocks must define tools.',
    ],
    [{ model: 'm', max_tokens: 5, tools: [{ name: 'r' }], messages: [{ role: 'user', content: 'x' }] }, 'tools.0.custom.input_schema: Field required'],
  ])('rejects what the API rejects, in its words (%#)', (body, message) => {
    const out = ask('anthropic', body);
    expect(out.reply.status).toBe(400);
    expect(errorOf(out)).toEqual({ type: 'invalid_request_error', message });
  });
});

describe('the Chat Completions request check', () => {
  it('accepts developer role, content arrays, refusal/audio fields, parallel_tool_calls and stream_options, and one turn sent as two assistant messages', () => {
    const body = {
      model: 'gpt-4.1',
      parallel_tool_calls: false,
      stream: true,
      stream_options: { include_usage: true },
      response_format: { type: 'text' },
      tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object' }, strict: false } }],
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'be brief' }] },
        { role: 'user', content: [{ type: 'text', text: 'read a' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] },
        // The OpenAI Agents SDK sends a turn's text and its tool calls as two messages.
        { role: 'assistant', content: 'Reading.', refusal: null },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_mock_1_0', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] },
        { role: 'tool', tool_call_id: 'call_mock_1_0', content: [{ type: 'text', text: 'ok' }] },
      ],
    };
    const out = ask('openai', body);
    expect(out.reply.status).toBe(200);
    expect(out.turn).toBe(2);
    expect(out.said?.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it.each([
    [{ messages: [{ role: 'user', content: 'x' }] }, { message: 'you must provide a model parameter', param: null, code: null }],
    [{ model: 'm', messages: [] }, { param: 'messages', code: 'empty_array' }],
    [{ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, { message: "Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", param: 'messages[0].role', code: 'invalid_value' }],
    [{ model: 'm', messages: [{ role: 'tool', content: 'x' }] }, { message: "Missing required parameter: 'messages[0].tool_call_id'.", code: 'missing_required_parameter' }],
    [
      { model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'read', strict: true, parameters: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false } } }] },
      { message: "Invalid schema for function 'read': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'a'.", param: 'tools[0].function.parameters' },
    ],
  ])('rejects what the API rejects, with its message, param and code (%#)', (body, error) => {
    const out = ask('openai', body);
    expect(out.reply.status).toBe(400);
    expect(errorOf(out)).toMatchObject({ type: 'invalid_request_error', ...error });
  });
});

describe('the Responses request check', () => {
  const tools = [{ type: 'function', name: 'read', parameters: { type: 'object' }, strict: false }];
  it('answers a string input, and pairs function_call with function_call_output by call_id', () => {
    expect(ask('responses', { model: 'm', input: 'read a', tools }).reply.status).toBe(200);
    const body = {
      model: 'm',
      tools,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low' },
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'read a' }] },
        { type: 'function_call', call_id: 'call_mock_1_0', name: 'read', arguments: '{"path":"a"}' },
        { type: 'function_call_output', call_id: 'call_mock_1_0', output: 'ok' },
      ],
    };
    const out = ask('responses', body);
    expect(out.reply.status).toBe(200);
    expect(out.turn).toBe(2);
  });

  it.each([
    [[{ role: 'user', content: 'x' }, { type: 'function_call', call_id: 'c1', name: 'read', arguments: '{}' }], 'No tool output found for function call c1.'],
    [[{ role: 'user', content: 'x' }, { type: 'function_call_output', call_id: 'c9', output: 'ok' }], 'No tool call found for function call output with call_id c9.'],
  ])('rejects unpaired calls and outputs with the real text (%#)', (input, message) => {
    const out = ask('responses', { model: 'm', tools, input });
    expect(out.reply.status).toBe(400);
    expect(errorOf(out)).toMatchObject({ type: 'invalid_request_error', param: 'input', message });
  });

  it('answers an unknown previous_response_id with the real 400', () => {
    const out = ask('responses', { model: 'm', input: 'x', previous_response_id: 'resp_nope' });
    expect(errorOf(out)).toMatchObject({ message: "Previous response with id 'resp_nope' not found.", param: 'previous_response_id', code: 'previous_response_not_found' });
  });
});
