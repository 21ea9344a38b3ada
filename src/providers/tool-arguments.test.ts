import { describe, expect, it } from 'vitest';
import { checkToolInput, parseToolArguments } from './tool-arguments.js';

describe('tool argument parsing', () => {
  it('parses a JSON object', () => {
    expect(parseToolArguments('{"path":"a.ts","n":2}')).toEqual({ input: { path: 'a.ts', n: 2 } });
  });

  it('reports empty, malformed and non-object arguments instead of throwing', () => {
    expect(parseToolArguments('')).toEqual({ input: {}, inputError: { reason: 'empty', raw: '' } });
    expect(parseToolArguments('  ')).toEqual({ input: {}, inputError: { reason: 'empty', raw: '  ' } });
    expect(parseToolArguments('{"path": "a')).toEqual({ input: {}, inputError: { reason: 'malformed', raw: '{"path": "a' } });
    for (const raw of ['null', '[1]', '"s"', '3']) expect(parseToolArguments(raw).inputError?.reason).toBe('not_object');
  });

  it('caps the raw text at 200 characters', () => {
    expect(parseToolArguments('{' + 'a'.repeat(300)).inputError?.raw).toHaveLength(200);
  });

  it('accepts decoded objects and flags anything else', () => {
    expect(checkToolInput({ a: 1 })).toEqual({ input: { a: 1 } });
    expect(checkToolInput('x')).toEqual({ input: {}, inputError: { reason: 'not_object', raw: '"x"' } });
    expect(checkToolInput(null).inputError?.raw).toBe('null');
  });
});
