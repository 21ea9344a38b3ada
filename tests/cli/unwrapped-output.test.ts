/**
 * Output that is not a terminal (a pipe, a file, a CI log) keeps each line
 * of text whole: a long trace path — a macOS TMPDIR, a CI workspace — is
 * never broken across lines, so grep and a test's regex find it. On a
 * terminal the same report still fits 100 columns.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ev, line, tempDir, writeTrace } from '../analysis/fixtures.js';
import { cli } from './cli-io.js';

/** A folder as deep as a macOS TMPDIR under a CI workspace: every path in it is over 100 characters. */
function deepDir(): string {
  const dir = join(tempDir(), 'var/folders/7x/k2m0q9_s1234567890abcdefghij0000gn/T/ci-workspace-of-a-long-named-project');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function trace(dir: string, name: string, sessions: number, extra: string[] = []): string {
  const lines: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const s = `${name}-${i}`;
    lines.push(line(ev.sessionStart(s)), line(ev.toolCall(s, 'bash', `b${i}`)), line(ev.toolSuccess(s, 'bash', `b${i}`, 100)), line(ev.sessionEnd(s, 'passed')));
  }
  return writeTrace(dir, `${name}.jsonl`, [...lines, ...extra]);
}

const linesWith = (text: string, part: string) => text.split('\n').filter((l) => l.includes(part));

describe('output to a non-terminal is not wrapped', () => {
  it('report and diff name every input path whole on one line', async () => {
    const dir = deepDir();
    const base = trace(dir, 'base', 3);
    const cand = trace(dir, 'cand', 2, ['not json']);
    expect(base.length).toBeGreaterThan(100);

    const report = await cli(['report', cand]);
    expect(report.code).toBe(0);
    expect(linesWith(report.stdout, cand)).not.toEqual([]);
    // the quarantined line is named by its file and line number, whole
    expect(linesWith(report.stdout, `${cand}:9: not JSON`)).toHaveLength(1);

    const diff = await cli(['diff', base, cand]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(new RegExp(`^base: ${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 12 lines, run r1$`, 'm'));
    expect(linesWith(diff.stdout, cand)).toHaveLength(1);
  });

  it('on a terminal the same report and diff fit 100 columns', async () => {
    const dir = deepDir();
    const base = trace(dir, 'base', 3);
    const cand = trace(dir, 'cand', 2, ['not json']);
    for (const args of [['report', cand], ['diff', base, cand]]) {
      const { stdout } = await cli(args, { isTTY: true });
      expect(stdout.split('\n').filter((l) => [...l].length > 100)).toEqual([]);
      expect(linesWith(stdout, cand)).toEqual([]);
    }
  });
});
