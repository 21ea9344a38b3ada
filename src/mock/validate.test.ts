import { describe, expect, it } from 'vitest';
import { checkAnthropicPairing } from './validate-anthropic.js';
import { checkOpenAIPairing } from './validate-openai.js';

const use = (id: string) => ({ type: 'tool_use', id, name: 'read', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

describe('Anthropic pairing checks', () => {
  it('accepts complete pairs in any order', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a'), use('b')] },
      { role: 'user', content: [result('b'), result('a')] },
    ];
    expect(checkAnthropicPairing(messages)).toBeNull();
  });

  it('rejects a repeated tool_use id with the real text, naming where the repeat is', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a'), use('a')] },
      { role: 'user', content: [result('a'), result('a')] },
    ];
    expect(checkAnthropicPairing(messages)).toBe('messages.1.content.1: `tool_use` ids must be unique');
  });

  it('names the assistant message index and every missing id', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a'), use('b'), use('c')] },
      { role: 'user', content: [result('b')] },
    ];
    expect(checkAnthropicPairing(messages)).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: a, c. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  it('does not accept results that arrive a message late', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a')] },
      { role: 'user', content: 'wait' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [result('a')] },
    ];
    expect(checkAnthropicPairing(messages)).toMatch(/^messages\.1: `tool_use` ids were found without/);
  });

  it('rejects a tool_result that answers no tool_use of the previous message', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [use('a')] },
      { role: 'user', content: [result('a'), result('zz')] },
    ];
    expect(checkAnthropicPairing(messages)).toBe(
      'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: zz. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });
});

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'read', arguments: '{}' } });

describe('OpenAI pairing checks', () => {
  it('accepts one tool message per call right after the assistant message', () => {
    const messages = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: 'x' },
      { role: 'tool', tool_call_id: 'b', content: 'y' },
      { role: 'user', content: 'more' },
    ];
    expect(checkOpenAIPairing(messages)).toBeNull();
  });

  it('reports calls without tool messages with the real text and param', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('call_a')] },
      { role: 'user', content: 'hello?' },
    ];
    expect(checkOpenAIPairing(messages)).toEqual({
      message:
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a",
      param: 'messages.[2].role',
    });
  });

  it('does not count a tool message placed after a user message', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: 'x' },
      { role: 'user', content: 'hm' },
      { role: 'tool', tool_call_id: 'b', content: 'y' },
    ];
    expect(checkOpenAIPairing(messages)?.message).toMatch(/did not have response messages: b$/);
  });

  it('rejects a tool message with no preceding tool_calls', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'tool', tool_call_id: 'a', content: 'x' },
    ];
    expect(checkOpenAIPairing(messages)).toEqual({
      message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      param: 'messages.[1].role',
    });
  });

  it('rejects a tool message answering an id that was not called', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: 'x' },
      { role: 'tool', tool_call_id: 'ghost', content: 'y' },
    ];
    expect(checkOpenAIPairing(messages)?.param).toBe('messages.[3].tool_call_id');
  });
});
