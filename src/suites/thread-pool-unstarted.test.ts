/**
 * A worker thread that ends before it is handed a session (it could not
 * start: no descriptor or memory for a new thread, a module that fails to
 * load in it) loses no session: the run goes on on the other workers, or on
 * the main thread when none could start. Before, the run ended at once with
 * "0 passed, 0 failed (0 tasks)" and every session unrun.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { JsonlSink } from '../events/sink.js';
import { tempDir } from '../../tests/helpers/temp-dirs.js';
import { typoSuiteYaml } from '../../tests/helpers/typo-suite.js';
import { loadSuiteFile } from './load-suite.js';
import { mockModelSource } from './mock-source.js';
import { newRunId, runSuite } from './run-suite.js';
import { threadPool } from './thread-pool.js';
import type { ThreadInit } from './thread-protocol.js';
import { startWorker } from './thread-start.js';

const TASKS = 12;

/** A thread whose entry fails to load, as a worker does when its module cannot be read (EMFILE) or throws. */
const failingThread = () => new Worker('throw new Error("cannot load the harness here")', { eval: true });

async function runOn(starts: ((init: ThreadInit) => Worker)[]) {
  const dir = tempDir();
  writeFileSync(join(dir, 'suite.yaml'), typoSuiteYaml('unstarted', TASKS));
  const { tasks } = loadSuiteFile(join(dir, 'suite.yaml'));
  const runId = newRunId();
  let started = 0;
  const pool = threadPool({ workers: starts.length, runId, init: { source: { kind: 'mock', options: {} }, mcpNames: 'private' }, start: (init) => starts[started++]!(init) });
  const trace = join(dir, 'run.jsonl');
  const sink = new JsonlSink(trace, { truncate: true });
  const source = mockModelSource({});
  try {
    const summary = await runSuite({ tasks, sink, source, runId, concurrency: 4, tempDir: dir, executor: pool.executor({ lines: sink, sink }, { dir }) });
    sink.close();
    const events = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; task_id?: string; outcome?: string });
    return { summary, events, crashes: pool.crashes(), unstarted: pool.unstarted() };
  } finally {
    pool.close();
    await source.close();
  }
}

function expectEverySessionPassed({ summary, events }: Awaited<ReturnType<typeof runOn>>) {
  expect(summary.outcomes).toHaveLength(TASKS);
  expect(summary.passed).toBe(TASKS);
  const ends = events.filter((e) => e.event === 'session_end');
  expect(new Set(ends.map((e) => e.task_id)).size).toBe(TASKS);
  expect(ends.every((e) => e.outcome === 'passed')).toBe(true);
  expect(events.at(-1)).toMatchObject({ event: 'run_end', sessions: TASKS, passed: TASKS });
}

describe('a worker thread that could not start', () => {
  it('when none could start, the main thread runs every session, and the pool says why', async () => {
    const ran = await runOn([failingThread, failingThread]);
    expectEverySessionPassed(ran);
    expect(ran.crashes).toEqual([]);
    expect(ran.unstarted).toHaveLength(2);
    expect(ran.unstarted.join('\n')).toContain('cannot load the harness here');
    expect(ran.unstarted.at(-1)).toMatch(/^worker \d could not start \(cannot load the harness here\), nor could any other; the main thread ran the sessions$/);
  }, 60_000);

  it('when one could, it runs the sessions of the one that could not', async () => {
    const ran = await runOn([failingThread, startWorker]);
    expectEverySessionPassed(ran);
    expect(ran.crashes).toEqual([]);
    expect(ran.unstarted).toEqual(['worker 1 could not start (cannot load the harness here); the other worker took its share']);
  }, 60_000);
});
