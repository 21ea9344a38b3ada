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

describe('redaction of texts that hold only one kind of secret', () => {
  // Each text triggers one rule and holds no other secret word, so a shortcut that skips a rule's pass shows here.
  it.each([
    ['Bearer', 'header "Bearer abcdefgh12345678" was sent'],
    ['Basic', 'header was Basic dXNlcjpodW50ZXIy'],
    ['URL user info', 'connect to postgres://admin:hunter22@db.example/main'],
    ['_KEY', 'export STRIPE_KEY=abcdef123456'],
    ['_PAT', 'export GITHUB_PAT=abcdef123456'],
  ])('%s', (_kind, text) => {
    const out = redact(text);
    expect(out).toContain('[REDACTED]');
    expect(out).not.toMatch(/abcdefgh12345678|dXNlcjpodW50ZXIy|hunter22|abcdef123456/);
  });
});
