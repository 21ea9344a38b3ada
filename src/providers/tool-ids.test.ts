import { describe, expect, it } from 'vitest';
import { ToolIdRegistry, withUniqueToolIds } from './tool-ids.js';
import type { AssistantBlock } from './types.js';

const use = (id: string): AssistantBlock => ({ type: 'tool_use', id, name: 'read', input: {} });

describe('tool-use ids the API takes back', () => {
  it('renames a repeat within the turn and keeps the first', () => {
    const content = new ToolIdRegistry().apply([use('t1'), use('t1'), use('t2')]);
    expect(content.map((b) => (b.type === 'tool_use' ? b.id : ''))).toEqual(['t1', 't1_dup1', 't2']);
  });

  it('renames an id already used in an earlier turn, and names a missing one', () => {
    const registry = new ToolIdRegistry([{ role: 'assistant', content: [use('t1')] }]);
    expect([registry.unique('t1'), registry.unique(''), registry.unique('')]).toEqual(['t1_dup1', 'toolu_faultline_1', 'toolu_faultline_2']);
  });

  it('withUniqueToolIds: a reply with calls gets ids unique against the conversation, one without calls comes back as it is', () => {
    const history = [{ role: 'assistant' as const, content: [use('t1')] }];
    const calls = withUniqueToolIds(history, [{ type: 'text', text: 'x' }, use('t1'), use('t1'), use('')]);
    expect(calls.map((b) => (b.type === 'tool_use' ? b.id : b.text))).toEqual(['x', 't1_dup1', 't1_dup2', 'toolu_faultline_1']);
    const text: AssistantBlock[] = [{ type: 'text', text: 'done' }];
    expect(withUniqueToolIds(history, text)).toBe(text);
  });
});
