/**
 * Item 13 of issue 29: a failed `files:` check says what the file holds: the
 * first differing line for `equals`, the file's text (its start) otherwise.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateExpectations } from '../../src/suites/expectations.js';
import type { TaskExpect } from '../../src/suites/schema.js';
import { tempDir } from '../helpers/temp-dirs.js';

function check(files: TaskExpect['files'], content: Record<string, string>) {
  const workspace = tempDir();
  for (const [name, text] of Object.entries(content)) writeFileSync(join(workspace, name), text);
  return evaluateExpectations({ files }, { finalText: '', stop: 'end_turn', workspace, events: [] });
}

describe('a failed files: check', () => {
  it('names the first line that differs from equals, expected against actual', () => {
    const [r] = check({ 'a.txt': { equals: 'one\ntwo\nthree\n' } }, { 'a.txt': 'one\n2\nthree\n' });
    expect(r).toEqual({ id: 'files.a.txt', ok: false, detail: 'a.txt equals "one\\ntwo\\nthree\\n"; first difference at line 2: expected "two", got "2"' });
    const [short] = check({ 'a.txt': { equals: 'one\ntwo\n' } }, { 'a.txt': 'one' });
    expect(short?.detail).toBe('a.txt equals "one\\ntwo\\n"; first difference at line 2: expected "two", the file ends (1 line)');
  });

  it('quotes the file for contains, not_contains and regex, cut when long', () => {
    expect(check({ 'b.txt': { contains: 'long' } }, { 'b.txt': 'short\n' })[0]?.detail).toBe('b.txt contains "long"; file is: "short\\n"');
    const long = 'x'.repeat(400);
    expect(check({ 'c.txt': { regex: '^y' } }, { 'c.txt': long })[0]?.detail).toBe(`c.txt matches /^y/; file is: "${'x'.repeat(300)}…" (400 chars)`);
  });

  it('adds nothing to a check that held', () => {
    expect(check({ 'd.txt': { contains: 'ok' } }, { 'd.txt': 'ok\n' })[0]).toEqual({ id: 'files.d.txt', ok: true, detail: 'd.txt contains "ok"' });
  });
});
