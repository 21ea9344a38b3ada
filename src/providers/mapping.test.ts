import { describe, expect, it } from 'vitest';
import { fromAnthropicMessage, toAnthropicParams } from './anthropic-mapping.js';
import { fromOpenAICompletion, toOpenAIParams } from './openai-mapping.js';
import type { Message, ModelRequest } from './types.js';

const history: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'read both' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'ok' },
      { type: 'tool_use', id: 't1', name: 'read', input: { path: 'a' } },
      { type: 'tool_use', id: 't2', name: 'read', input: { path: 'b' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 't1', content: 'A', is_error: false },
      { type: 'tool_result', tool_use_id: 't2', content: 'no such file', is_error: true },
      { type: 'text', text: 'also note this' },
    ],
  },
];
const request: ModelRequest = {
  system: 'sys',
  messages: history,
  tools: [{ name: 'read', description: 'Read.', input_schema: { type: 'object' } }],
  maxTokens: 99,
};

describe('Anthropic mapping', () => {
  it('sends the system prompt top-level and all tool results in one user message', () => {
    const params = toAnthropicParams('m', request, {}, false);
    expect(params.system).toBe('sys');
    expect(params.max_tokens).toBe(99);
    expect(params.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'A', is_error: false },
        { type: 'tool_result', tool_use_id: 't2', content: 'no such file', is_error: true },
        { type: 'text', text: 'also note this' },
      ],
    });
    expect(params.tools).toEqual([{ name: 'read', description: 'Read.', input_schema: { type: 'object' } }]);
  });

  it('marks the stable prefix (system) and the conversation\'s last block with cache_control by default, nothing else', () => {
    const params = toAnthropicParams('m', request);
    expect(params.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    expect(params.tools).toEqual([{ name: 'read', description: 'Read.', input_schema: { type: 'object' } }]);
    const last = params.messages.at(-1)!.content as unknown as Array<Record<string, unknown>>;
    expect(last.at(-1)).toEqual({ type: 'text', text: 'also note this', cache_control: { type: 'ephemeral' } });
    expect(JSON.stringify(params).split('"cache_control"').length - 1).toBe(2);
    // Without a system prompt the stable prefix ends at the last tool.
    const bare = toAnthropicParams('m', { ...request, system: undefined });
    expect(bare.tools?.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    // Off: no breakpoint anywhere.
    expect(JSON.stringify(toAnthropicParams('m', request, {}, false))).not.toContain('cache_control');
  });

  it('omits tools when there are none', () => {
    expect('tools' in toAnthropicParams('m', { ...request, tools: [] })).toBe(false);
  });

  it('maps usage including cache reads and writes, and flags a non-object input', () => {
    // Only the fields the mapping reads; the SDK type has many more.
    const message = {
      content: [{ type: 'tool_use', id: 'x', name: 'read', input: [1] }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 5, output_tokens: 6, cache_read_input_tokens: 7, cache_creation_input_tokens: 8 },
    } as unknown as Parameters<typeof fromAnthropicMessage>[0];
    const res = fromAnthropicMessage(message);
    expect(res.usage).toEqual({ input_tokens: 5, output_tokens: 6, cache_read_tokens: 7, cache_write_tokens: 8 });
    expect(res.content[0]).toMatchObject({ input: {}, inputError: { reason: 'not_object' } });
  });
});

describe('OpenAI mapping', () => {
  it('puts the system prompt first and each tool result in its own tool message, in order, before the user text', () => {
    const params = toOpenAIParams('m', request, 'max_completion_tokens');
    expect(params.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(params.messages[2]).toEqual({
      role: 'assistant',
      content: 'ok',
      tool_calls: [
        { id: 't1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
        { id: 't2', type: 'function', function: { name: 'read', arguments: '{"path":"b"}' } },
      ],
    });
    expect(params.messages[3]).toEqual({ role: 'tool', tool_call_id: 't1', content: 'A' });
    // No is_error on this wire: the error is marked in the text.
    expect(params.messages[4]).toEqual({ role: 'tool', tool_call_id: 't2', content: 'Error: no such file' });
    expect(params.max_completion_tokens).toBe(99);
    expect(params.tools?.[0]).toEqual({ type: 'function', function: { name: 'read', description: 'Read.', parameters: { type: 'object' } } });
  });

  it('can use max_tokens for older compatible servers', () => {
    const params = toOpenAIParams('m', request, 'max_tokens');
    expect([params.max_tokens, params.max_completion_tokens]).toEqual([99, undefined]);
  });

  it('counts cached prompt tokens apart from fresh input tokens', () => {
    const completion = {
      choices: [{ message: { content: 'hi', tool_calls: [] }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 60 } },
    } as unknown as Parameters<typeof fromOpenAICompletion>[0];
    const res = fromOpenAICompletion(completion);
    expect(res.usage).toEqual({ input_tokens: 40, output_tokens: 3, cache_read_tokens: 60, cache_write_tokens: 0 });
    expect([res.stopReason, res.stopClass]).toEqual(['stop', 'end_turn']);
  });
});
