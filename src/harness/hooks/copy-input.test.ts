import { describe, expect, it } from 'vitest';
import { copyForHook } from './copy-input.js';

describe('copyForHook', () => {
  it('copies JSON-like input deeply: the copy equals the original and shares nothing with it', () => {
    const input = { command: 'ls', n: 1.5, ok: true, none: null, gone: undefined, list: [1, 'a', { deep: [null] }], nested: { a: { b: 'c' } } };
    const copy = copyForHook(input) as typeof input;
    expect(copy).toEqual(structuredClone(input));
    expect(Object.keys(copy)).toEqual(Object.keys(input));
    copy.list[2] = 'changed';
    copy.nested.a.b = 'changed';
    expect(input.list[2]).toEqual({ deep: [null] });
    expect(input.nested.a.b).toBe('c');
  });

  it('hands anything that is not plain data to structuredClone, as before', () => {
    const date = new Date(0);
    const copy = copyForHook({ when: date, map: new Map([['k', 1]]) }) as { when: Date; map: Map<string, number> };
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(date);
    expect(copy.map.get('k')).toBe(1);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const c = copyForHook(cyclic) as Record<string, unknown>;
    expect(c.self).toBe(c);
    expect(() => copyForHook({ f: () => 1 })).toThrow(); // structuredClone's DataCloneError
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const copy = copyForHook(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(copy, '__proto__')).toBe(true);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
