/**
 * Issue 23, class 9: resource exhaustion costs one call, never the run.
 * A catastrophic-backtracking pattern in the grep tool, a FIFO read by the
 * read tool or by an `expect.files` check: each ends within its bound while
 * the event loop keeps running (a timer keeps ticking, another call
 * completes), instead of holding every task of the run.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grepTool } from '../../src/harness/tools/grep.js';
import { readTool } from '../../src/harness/tools/read.js';
import { evaluateExpectations } from '../../src/suites/expectations.js';
import { makeLab, removeLabs } from './lab.js';

afterAll(removeLabs, 180_000);

/** Runs `work` while measuring the longest gap between 10 ms ticks of the event loop. */
async function withLoopWatch<T>(work: () => Promise<T>): Promise<{ value: T; longestGapMs: number; ms: number }> {
  let last = Date.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = Date.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  const start = Date.now();
  try {
    const value = await work();
    return { value, longestGapMs: Math.max(longest, Date.now() - last), ms: Date.now() - start };
  } finally {
    clearInterval(tick);
  }
}

describe('grep: a backtracking pattern', () => {
  it('does not hold the event loop, and the call ends at its timeout', async () => {
    const lab = makeLab();
    writeFileSync(join(lab.ws, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    const signal = AbortSignal.timeout(1000); // the call's own timeout, as the pipeline gives it
    const r = await withLoopWatch(() => grepTool.execute({ pattern: '(a+)+$', path: 'evil.txt' }, { workspace: lab.ws, signal }));
    expect(r.value.errorCode).toBe('aborted');
    expect(r.ms).toBeLessThan(4000);
    // Loaded machines stall a little; a regex on the loop stalls for the whole match (minutes here).
    expect(r.longestGapMs).toBeLessThan(700);
  }, 30_000);

  it('still finds what an ordinary pattern matches, with the same line numbers', async () => {
    const lab = makeLab();
    writeFileSync(join(lab.ws, 'x.txt'), 'one\r\ntwo\n\nthree two\n');
    const out = await grepTool.execute({ pattern: 'tw(o)', path: 'x.txt' }, { workspace: lab.ws, signal: new AbortController().signal });
    expect(out.content).toBe('x.txt:2:two\nx.txt:4:three two');
  }, 30_000);
});

describe('a FIFO in the workspace', () => {
  it('the read tool refuses it at once instead of waiting for a writer', async () => {
    const lab = makeLab();
    execFileSync('mkfifo', [join(lab.ws, 'pipe.txt')]);
    const r = await withLoopWatch(() => readTool.execute({ file_path: 'pipe.txt' }, { workspace: lab.ws, signal: AbortSignal.timeout(10_000) }));
    expect(r.value).toMatchObject({ isError: true, errorCode: 'not_regular_file' });
    expect(r.ms).toBeLessThan(2000);
  }, 30_000);

  it('an expect.files check fails at once, naming it, instead of hanging the run', async () => {
    const lab = makeLab();
    execFileSync('mkfifo', [join(lab.ws, 'out.txt')]);
    const r = await withLoopWatch(async () => evaluateExpectations({ files: { 'out.txt': { contains: 'done' } } }, { finalText: '', stop: 'end_turn', workspace: lab.ws, events: [] }));
    expect(r.value).toEqual([{ id: 'files.out.txt', ok: false, detail: 'out.txt is a named pipe (FIFO), not a regular file' }]);
    expect(r.ms).toBeLessThan(2000);
  }, 30_000);
});
