import { describe, expect, it } from 'vitest';
import { SessionMemory, memoryKey, stableStringify } from './session-memory.js';

describe('session memory', () => {
  it('keys by tool and input, whatever the key order of the input', () => {
    expect(memoryKey('edit', { a: 1, b: { c: [1, 2], d: 'x' } })).toBe(memoryKey('edit', { b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(memoryKey('edit', { a: 1 })).not.toBe(memoryKey('write', { a: 1 }));
    expect(memoryKey('bash', { command: 'rm /tmp/a' })).not.toBe(memoryKey('bash', { command: 'rm /tmp/b' }));
  });

  it('serializes stably and ignores undefined properties like JSON does', () => {
    expect(stableStringify({ b: 1, a: undefined, c: [undefined, 'x'] })).toBe('{"b":1,"c":[null,"x"]}');
  });

  it('remembers approvals until cleared', () => {
    const m = new SessionMemory();
    m.remember('bash', { command: 'npm test' });
    expect(m.has('bash', { command: 'npm test' })).toBe(true);
    expect(m.has('bash', { command: 'npm test -- -u' })).toBe(false);
    m.clear();
    expect(m.has('bash', { command: 'npm test' })).toBe(false);
  });
});
