import { describe, expect, it } from 'vitest';
import { firstDifference, preview } from './exchange-diff.js';

describe('firstDifference', () => {
  it('names the first differing leaf with array indexes and dotted keys', () => {
    const recorded = { messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }, { role: 'user', content: [{ type: 'tool_result', content: 'old' }] }] };
    const sent = { messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }, { role: 'user', content: [{ type: 'tool_result', content: 'new' }] }] };
    expect(firstDifference(recorded, sent)).toEqual({ path: 'messages[1].content[0].content', recorded: 'old', sent: 'new' });
  });

  it('reports an extra or missing element as absent on one side', () => {
    expect(firstDifference({ m: [1] }, { m: [1, 2] })).toEqual({ path: 'm[1]', recorded: undefined, sent: 2 });
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })).toEqual({ path: 'b', recorded: 2, sent: undefined });
  });

  it('returns null for equal values whatever the key order', () => {
    expect(firstDifference({ a: 1, b: [{ c: 'x' }] }, { b: [{ c: 'x' }], a: 1 })).toBeNull();
  });

  it('quotes keys that are not identifiers', () => {
    expect(firstDifference({ 'input-schema': 1 }, { 'input-schema': 2 })?.path).toBe('["input-schema"]');
  });
});

describe('preview', () => {
  it('cuts long values and marks absent ones', () => {
    expect(preview('x'.repeat(200), 10)).toHaveLength(10);
    expect(preview(undefined)).toBe('(absent)');
  });
});
