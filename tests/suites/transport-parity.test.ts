/**
 * Every scripted scenario in suites/ (faults, controls, demo) gives the same
 * verdict on both mock transports: the in-process fetch (memory, the
 * default) and the loopback HTTP server. Same outcome per task and the same
 * failed expectations, so a suite written against one means the same on the
 * other. A task that pins `transport: http` is left out of the comparison and
 * must say why (`transport_reason`); it is shown to run over a socket even in
 * a memory run, and an unpinned memory run opens no socket at all.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/index.js';
import { sharedLoopbackServer, stopSharedLoopbackServer } from '../../src/mock/loopback-model.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { mockModelSource, type MockTransport } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const root = join(import.meta.dirname, '../../suites');
const tasks = loadSuites(['faults', 'controls', 'demo'].map((dir) => join(root, dir))).filter((t) => t.script !== undefined);
const pinned = tasks.filter((t) => t.transport === 'http');
const compared = tasks.filter((t) => t.transport === undefined);

afterAll(async () => {
  await stopSharedLoopbackServer();
});

/** Per task: its outcome and the ids of its failed expectations (the verdict a user reads). */
async function verdicts(chosen: LoadedTask[], transport: MockTransport): Promise<{ verdicts: Record<string, string>; sockets: number }> {
  // The process-wide server the http transport uses: its accepted connections say whether a run used sockets.
  const before = (await sharedLoopbackServer()).connections().accepted;
  const source = mockModelSource({ transport });
  const summary = await runSuite({ tasks: chosen, sink: new MemorySink(), source, concurrency: 8 });
  const server = await sharedLoopbackServer();
  const sockets = server.connections().accepted - before;
  await source.close();
  const out: Record<string, string> = {};
  for (const o of summary.outcomes) {
    const failed = o.expectations.filter((e) => !e.ok).map((e) => e.id).sort();
    out[`${o.task.suite}/${o.task.id}`] = `${o.outcome}${failed.length > 0 ? ` (failed: ${failed.join(', ')})` : ''}${o.error ? ` error: ${o.error.split(':')[0]}` : ''}`;
  }
  return { verdicts: out, sockets };
}

describe('mock transports', () => {
  it('load every scripted scenario of faults, controls and demo', () => {
    expect(new Set(tasks.map((t) => t.suite)).size).toBeGreaterThan(20);
    expect(compared.length).toBeGreaterThan(100);
  });

  it('every task pinning a transport says why', () => {
    for (const task of tasks.filter((t) => t.transport !== undefined)) expect(task.transport_reason, `${task.file}: ${task.id}`).toMatch(/\S{3,}/);
    // The connection reset is the socket's own fault: it pins http.
    expect(pinned.map((t) => t.id)).toContain('protocol-013-connection-reset');
  });

  it('give the same verdict per task on memory and on http', { timeout: 600_000 }, async () => {
    const memory = await verdicts(compared, 'memory');
    const http = await verdicts(compared, 'http');
    expect(Object.keys(memory.verdicts)).toHaveLength(compared.length);
    expect(memory.verdicts).toEqual(http.verdicts);
    // The memory run really ran in-process, the http run over sockets.
    expect(memory.sockets).toBe(0);
    expect(http.sockets).toBeGreaterThan(0);
  });

  it('run a task pinned to http over a socket even when the run asks for memory, and pass there', { timeout: 120_000 }, async () => {
    const run = await verdicts(pinned, 'memory');
    expect(run.sockets).toBeGreaterThan(0);
    expect(Object.values(run.verdicts).every((v) => v === 'passed'), JSON.stringify(run.verdicts)).toBe(true);
  });
});
