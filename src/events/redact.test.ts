import { describe, expect, it } from 'vitest';
import { redact, redactAndCap } from './redact.js';

describe('redact', () => {
  it('removes API keys, bearer tokens and key=value secrets', () => {
    const text = 'key sk-ant-api03-abcdefghijklmnop1234 and Authorization: Bearer abcdefghijklmnopqrstuvwxyz and password=hunter22hunter';
    const out = redact(text);
    expect(out).not.toContain('abcdefghijklmnop1234');
    expect(out).not.toContain('abcdefghijklmnopqrstuvwxyz');
    expect(out).not.toContain('hunter22hunter');
    expect(out).toContain('Bearer [REDACTED]');
    expect(out).toContain('password=[REDACTED]');
  });

  it('leaves ordinary text alone and caps length', () => {
    expect(redact('expected 2, got 3')).toBe('expected 2, got 3');
    expect(redactAndCap('a'.repeat(50), 10)).toHaveLength(10);
  });
});
