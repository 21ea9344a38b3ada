import { describe, expect, it } from 'vitest';
import type { MockReply } from './engine.js';
import { encodeAnthropicMessage } from './encode-anthropic.js';
import { encodeOpenAICompletion, openaiFinishReason } from './encode-openai.js';
import { cutJsonText, partialObject } from './partial-json.js';

const usage = { input_tokens: 10, output_tokens: 2, cache_read_tokens: 5, cache_write_tokens: 4 };
const reply = (over: Partial<MockReply> = {}): MockReply => ({
  turn: 1,
  content: [
    { type: 'text', text: 'hi' },
    { type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a' } },
  ],
  stopReason: 'tool_use',
  usage,
  cutToolInput: false,
  fault: null,
  ...over,
});

describe('cut-off arguments', () => {
  it('cuts JSON text so it no longer parses', () => {
    for (const text of ['{}', '{"a":1}', JSON.stringify({ path: 'x'.repeat(30) })]) {
      const cut = cutJsonText(text);
      expect(text.startsWith(cut) && cut.length < text.length).toBe(true);
      expect(() => JSON.parse(cut)).toThrow();
    }
  });

  it('keeps only the keys completed before the cut', () => {
    expect(partialObject({ path: 'b.ts', content: 'x'.repeat(40) })).toEqual({ path: 'b.ts' });
    expect(partialObject({ only: 'value' })).toEqual({});
    expect(partialObject({})).toEqual({});
  });
});

describe('the Anthropic encoder', () => {
  it('writes the Messages API message object', () => {
    expect(encodeAnthropicMessage(reply(), { model: 'm', id: 'msg_1' })).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2, cache_creation_input_tokens: 4, cache_read_input_tokens: 5, service_tier: 'standard' },
    });
  });

  it('carries raw_arguments as the value they parse to, or {} when they do not parse', () => {
    const encoded = encodeAnthropicMessage(
      reply({
        content: [
          { type: 'tool_use', id: 'a', name: 'x', input: {}, rawArguments: '[1]' },
          { type: 'tool_use', id: 'b', name: 'x', input: { ignored: true }, rawArguments: '{"p' },
        ],
      }),
      { model: 'm', id: 'i' },
    );
    expect((encoded['content'] as Array<{ input: unknown }>).map((b) => b.input)).toEqual([[1], {}]);
  });
});

describe('the OpenAI encoder', () => {
  it('maps stop reasons, passes unknown ones through and keeps null', () => {
    expect(['tool_use', 'end_turn', 'max_tokens', 'refusal', 'stop_sequence', 'weird'].map(openaiFinishReason)).toEqual([
      'tool_calls',
      'stop',
      'length',
      'content_filter',
      'stop_sequence',
      'weird',
    ]);
    expect(openaiFinishReason(null)).toBeNull();
  });

  it('writes a chat.completion with string arguments and cached tokens inside prompt_tokens', () => {
    const encoded = encodeOpenAICompletion(reply(), { model: 'm', id: 'c1', created: 42 });
    expect(encoded).toMatchObject({
      id: 'c1',
      object: 'chat.completion',
      created: 42,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: 'hi', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] },
        },
      ],
      usage: { prompt_tokens: 15, completion_tokens: 2, total_tokens: 17, prompt_tokens_details: { cached_tokens: 5 } },
    });
  });

  it('omits tool_calls and sends null content when there is nothing to say', () => {
    const encoded = encodeOpenAICompletion(reply({ content: [], stopReason: 'end_turn' }), { model: 'm', id: 'c', created: 0 });
    const message = (encoded['choices'] as Array<{ message: Record<string, unknown> }>)[0]?.message;
    expect(message?.['content']).toBeNull();
    expect(message && 'tool_calls' in message).toBe(false);
  });

  it('cuts only the last call when cut_tool_input is set', () => {
    const encoded = encodeOpenAICompletion(
      reply({
        cutToolInput: true,
        content: [
          { type: 'tool_use', id: 'a', name: 'x', input: { p: 1 } },
          { type: 'tool_use', id: 'b', name: 'x', input: { p: 'long value here' } },
        ],
      }),
      { model: 'm', id: 'c', created: 0 },
    );
    const calls = (encoded['choices'] as Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }>)[0]?.message.tool_calls;
    expect(calls?.[0]?.function.arguments).toBe('{"p":1}');
    expect(calls?.[1]?.function.arguments).toBe(cutJsonText('{"p":"long value here"}'));
  });
});
