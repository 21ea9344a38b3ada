import { describe, expect, it } from 'vitest';
import { changedTools, type RemoteTool } from './remote-tool.js';

const tool = (name: string, description = `${name} tool`, inputSchema: Record<string, unknown> = { type: 'object' }): RemoteTool => ({ name, description, inputSchema, readOnlyHint: false });

describe('changed tools between two listings', () => {
  const first = [tool('a'), tool('b'), tool('c')];

  it('counts nothing for the same tools in another order', () => {
    expect(changedTools(first, [tool('c'), tool('a'), tool('b')])).toBe(0);
  });

  it('counts a changed description or input schema, an added and a removed tool', () => {
    expect(changedTools(first, [tool('a', 'now does more'), tool('b'), tool('c')])).toBe(1);
    expect(changedTools(first, [tool('a'), tool('b', 'b tool', { type: 'object', properties: { x: { type: 'string' } } }), tool('c')])).toBe(1);
    expect(changedTools(first, [tool('a'), tool('b'), tool('c'), tool('d')])).toBe(1);
    expect(changedTools(first, [tool('a'), tool('b')])).toBe(1);
  });
});
