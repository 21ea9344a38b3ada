import { describe, expect, it } from 'vitest';
import { ToolIdRegistry } from './tool-ids.js';
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
});
