/**
 * Sessions on the mock's in-memory transport wait on nothing but promises, so
 * without care a whole run is one chain of microtasks and the event loop never
 * turns until it ends: a Ctrl-C (here its stop signal, set from a timer) would
 * not be seen before the last session, and the background workspace removals
 * would all wait for the end. The run turns the loop between sessions.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/sink.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-turns-'));
const source = mockModelSource();
afterAll(async () => {
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

const SUITE = `suite: turns
tasks:
  - id: answer
    prompt: hi
    files: { f.txt: "x\\n" }
    script: [{ text: done }]
    expect: { files: { f.txt: { exists: true } } }
`;

describe('a run of sessions that never wait on I/O', () => {
  it('sees a stop set by a timer mid-run: it starts no more sessions and still ends with run_end', async () => {
    const file = join(dir, 'turns.yaml');
    writeFileSync(file, SUITE);
    const tasks = loadSuites([file]);
    const parent = mkdtempSync(join(dir, 'ws-'));
    const sink = new MemorySink();
    const stop = new AbortController();
    // Set once 100 sessions ended (past the first sessions' module loading, which turns the loop by itself).
    let ended = 0;
    let endedWhenFired = 0;
    const onTaskEnd = (_outcome: unknown, done: number) => {
      ended = done;
      if (done === 100)
        setTimeout(() => {
          endedWhenFired = ended;
          stop.abort('sigint');
        }, 0);
    };
    const summary = await runSuite({ tasks, sink, source, concurrency: 8, repeat: 2000, tempDir: parent, stopSignal: stop.signal, onTaskEnd });
    // The timer fired while sessions still ran (a few sessions after it was set, not after all 2,000), and the run
    // started no more from there.
    expect(endedWhenFired).toBeGreaterThanOrEqual(100);
    expect(endedWhenFired).toBeLessThan(1000);
    expect(summary.outcomes.length).toBeLessThan(1000);
    expect(summary.outcomes.every((o) => o.outcome === 'passed')).toBe(true);
    expect(sink.events().at(-1)).toMatchObject({ event: 'run_end', sessions: summary.outcomes.length });
    // Every workspace that was made is gone by the time the run resolves.
    expect(readdirSync(parent)).toEqual([]);
  }, 120_000);
});
