/**
 * Item 2 of issue 29: Ctrl-C stops `faultline run`. The first SIGINT says
 * how many tasks are finishing, starts nothing new and ends the run with
 * run_end; a second one aborts the running tasks, removes their workspaces
 * and still leaves a valid trace. Both exit 130. SIGTERM aborts at once, as
 * the second Ctrl-C does, and exits 143; SIGHUP as SIGTERM, then the process ends by the signal. The real CLI runs as a subprocess
 * and gets real signals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endedBy, type Ended } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';
import { slowSuite } from './slow-suite.js';


const text = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
const events = (file: string) =>
  text(file)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { event: string; outcome?: string; sessions?: number; aborted?: number });
const count = (file: string, event: string) => text(file).split('\n').filter((l) => l.includes(`"event":"${event}"`)).length;

function start(dir: string, ms: number): { child: ChildProcess; trace: string; stderr: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const suiteFile = join(dir, 'slow.yaml');
  const trace = join(dir, 'run.jsonl');
  writeFileSync(suiteFile, slowSuite(ms));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'run', suiteFile, '--out', trace, '-j', '4'], {
    cwd: process.cwd(),
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, TMPDIR: dir, NO_COLOR: '1' },
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => void (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, trace, stderr: () => err, exited };
}

/** Waits until some sessions ended and 4 are running. */
async function midRun(trace: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (count(trace, 'session_end') >= 4 && count(trace, 'session_start') - count(trace, 'session_end') === 4) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the run never reached the middle');
}

/** What the run left in its TMPDIR besides the suite, the trace and tsx's compile cache: task workspaces. */
const leftovers = (dir: string) => readdirSync(dir).filter((f) => f !== 'slow.yaml' && f !== 'run.jsonl' && !f.startsWith('tsx-'));

/**
 * A run of minute-long tasks, stopped by `stop` once 4 run: it must end within 30 s with the 4 sessions aborted,
 * `said` on stderr, exit `code`, run_end, a valid trace and no workspace left.
 */
async function expectAborted(stop: (run: ReturnType<typeof start>, at: number) => Promise<void>, said: string, ended: Ended): Promise<void> {
  const dir = tempDir();
  // Each task sleeps a minute: only an abort ends the run in time.
  const run = start(dir, 60_000);
  const deadline = Date.now() + 120_000;
  while (count(run.trace, 'tool_call') < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const startedBefore = count(run.trace, 'session_start');
  const at = Date.now();
  await stop(run, at);
  const exited = await run.exited;
  expect(Date.now() - at).toBeLessThan(30_000);
  expect(run.stderr()).toContain(said);
  expect(exited).toEqual(ended);
  const all = events(run.trace);
  expect(count(run.trace, 'session_start')).toBe(startedBefore);
  expect(all.filter((e) => e.event === 'session_end').map((e) => e.outcome)).toEqual(['aborted', 'aborted', 'aborted', 'aborted']);
  expect(all.at(-1)).toMatchObject({ event: 'run_end', sessions: 4, aborted: 4 });
  const validated = await cli(['validate', run.trace]);
  expect(validated.code).toBe(0);
  expect(leftovers(dir)).toEqual([]);
}

describe('Ctrl-C during faultline run', () => {
  it('first SIGINT: says so, starts nothing new, lets the running tasks finish, writes run_end, exits 130', async () => {
    const dir = tempDir();
    const run = start(dir, 1500);
    await midRun(run.trace);
    const startedBefore = count(run.trace, 'session_start');
    const at = Date.now();
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    const took = Date.now() - at;
    expect(run.stderr()).toContain('stopping: finishing 4 running tasks, Ctrl-C again to abort');
    expect(code).toBe(130);
    // Within one task's time (1.5 s of sleep, plus start-up slack on a loaded machine), not the rest of the suite's.
    expect(took).toBeLessThan(15_000);
    // Nothing new after the signal (one more only if a task ended in the instant before it arrived).
    const started = count(run.trace, 'session_start');
    expect(started).toBeLessThanOrEqual(startedBefore + 1);
    const all = events(run.trace);
    const ends = all.filter((e) => e.event === 'session_end');
    expect(ends).toHaveLength(started);
    // The running tasks finished normally, not aborted.
    expect(ends.every((e) => e.outcome === 'passed')).toBe(true);
    expect(all.at(-1)).toMatchObject({ event: 'run_end', sessions: started, aborted: 0 });
    const validated = await cli(['validate', run.trace]);
    expect(validated.code).toBe(0);
    expect(leftovers(dir)).toEqual([]);
  }, 180_000);

  it('second SIGINT: aborts the running tasks, removes their workspaces, leaves a valid trace with run_end, exits 130', async () => {
    await expectAborted(async (run, at) => {
      run.child.kill('SIGINT');
      while (!run.stderr().includes('Ctrl-C again') && Date.now() - at < 30_000) await new Promise((r) => setTimeout(r, 20));
      run.child.kill('SIGINT');
    }, 'aborting 4 running tasks', endedBy('SIGINT'));
  }, 180_000);

  it('SIGTERM (timeout, a service manager, a cancelled CI job): aborts at once, removes the workspaces, leaves run_end, exits 143', async () => {
    // Dying of the signal's default left the 4 running tasks' workspaces behind.
    await expectAborted(async (run) => void run.child.kill('SIGTERM'), 'terminated (SIGTERM): aborting 4 running tasks', endedBy('SIGTERM'));
  }, 180_000);

  it('SIGHUP (the terminal or SSH session went away): as SIGTERM, then ends by the signal (status 129 to a shell)', async () => {
    // Dying of the signal's default left the 4 running tasks' workspaces behind, and the trace without run_end.
    await expectAborted(async (run) => void run.child.kill('SIGHUP'), 'hung up (SIGHUP): aborting 4 running tasks', endedBy('SIGHUP'));
  }, 180_000);
});
