import { describe, expect, it } from 'vitest';
import { classifyAnthropicStop, classifyOpenAIStop } from './stop-class.js';

describe('stop reason classification', () => {
  it('maps every documented Anthropic stop reason to its class', () => {
    const raw = ['tool_use', 'end_turn', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal', 'model_context_window_exceeded'];
    expect(raw.map(classifyAnthropicStop)).toEqual([
      'tool_use',
      'end_turn',
      'max_tokens',
      'stop_sequence',
      'pause_turn',
      'refusal',
      'context_window_exceeded',
    ]);
  });

  it('maps OpenAI finish reasons to the same classes', () => {
    expect(['tool_calls', 'stop', 'length', 'content_filter'].map(classifyOpenAIStop)).toEqual([
      'tool_use',
      'end_turn',
      'max_tokens',
      'content_filter',
    ]);
  });

  it('treats a missing stop reason as its own null class on both wires', () => {
    expect([classifyAnthropicStop(null), classifyAnthropicStop(undefined), classifyOpenAIStop(null)]).toEqual(['null', 'null', 'null']);
  });

  it('fails closed: anything not whitelisted is unknown, including the other wire vocabulary and prototype names', () => {
    expect(['tool_calls', 'stop', '', 'TOOL_USE', 'constructor', '__proto__'].map(classifyAnthropicStop)).toEqual(Array(6).fill('unknown'));
    expect(['tool_use', 'end_turn', 'function_call', 'toString'].map(classifyOpenAIStop)).toEqual(Array(4).fill('unknown'));
  });
});
