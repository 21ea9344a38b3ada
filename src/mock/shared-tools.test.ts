import { afterEach, describe, expect, it } from 'vitest';
import { checkAnthropicBody } from './check-anthropic-body.js';
import { forgetKnownTools, parseBody } from './parse-body.js';
import { perSharedTools, shareTools } from './shared-tools.js';

afterEach(() => forgetKnownTools());

describe('perSharedTools', () => {
  it('checks a shared array once and any other value every time', () => {
    let runs = 0;
    const check = perSharedTools((tools) => {
      runs++;
      return Array.isArray(tools) && tools.length > 1 ? { message: 'too many' } : null;
    });
    const shared = Object.freeze([Object.freeze({ name: 'a' }), Object.freeze({ name: 'b' })]);
    shareTools(shared);
    const first = check(shared);
    expect(first).toEqual({ message: 'too many' });
    expect(check(shared)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(runs).toBe(1);
    const plain = [{ name: 'a' }, { name: 'b' }];
    check(plain);
    check(plain);
    expect(runs).toBe(3);
    expect(() => shareTools([1])).toThrow(/deep-frozen/);
  });

  it('gives the Anthropic body check the same verdict on a body whose definitions were shared', () => {
    const body = (n: number, name: string) => JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: `hi ${n}` }], tools: [{ name, input_schema: { type: 'object' } }] });
    for (const name of ['ok_name', 'bad name!']) {
      const verdicts = [1, 2, 3].map((n) => {
        const parsed = parseBody(body(n, name));
        return parsed.ok ? checkAnthropicBody(parsed.value) : 'unparsed';
      });
      expect(new Set(verdicts).size).toBe(1);
      expect(verdicts[0]).toBe(checkAnthropicBody(JSON.parse(body(9, name))));
    }
    expect(checkAnthropicBody(JSON.parse(body(1, 'bad name!')))).toMatch(/tools\.0\.custom\.name/);
  });
});
