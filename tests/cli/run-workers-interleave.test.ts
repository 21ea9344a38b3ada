/**
 * A worker thread runs the sessions it holds interleaved, as the main
 * thread's -j loops do. Sessions on the in-memory mock wait on nothing but
 * promises: started one per message, each ran to its end before the worker
 * read the next message, so a worker ran its share of -j one session after
 * the other, which cost each session about twice the CPU (start-together.ts).
 * Seen from the trace: a worker posts a session's events with its outcome,
 * so sessions run one after the other show up each in one unbroken block,
 * and sessions run interleaved show up mixed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { typoSuiteYaml } from '../helpers/typo-suite.js';
import { cli } from './cli-io.js';

const TASKS = 96;
const J = 16;

/** Sessions whose events are not one unbroken block of the trace. */
function interleavedSessions(file: string): number {
  const ids = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { session_id?: string }).session_id);
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  const count = new Map<string, number>();
  ids.forEach((id, at) => {
    if (id === undefined) return;
    if (!first.has(id)) first.set(id, at);
    last.set(id, at);
    count.set(id, (count.get(id) ?? 0) + 1);
  });
  return [...count].filter(([id, n]) => last.get(id)! - first.get(id)! + 1 !== n).length;
}

describe('faultline run --workers on sessions that wait on nothing but promises', () => {
  it('runs each worker thread’s sessions interleaved, not one after the other', async () => {
    const dir = tempDir();
    const file = join(dir, 'interleave.yaml');
    writeFileSync(file, typoSuiteYaml('interleave', TASKS));
    const trace = join(dir, 'trace.jsonl');
    const result = await cli(['run', file, '--workers', '2', '-j', String(J), '--out', trace], { env: { NO_COLOR: '1', TMPDIR: dir } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Run one after the other, only the sessions started while the workers load the harness mix (measured: 24 of
    // 96 at -j 16); interleaved, nearly all do (95-96).
    expect(interleavedSessions(trace)).toBeGreaterThan(TASKS / 2);
  }, 120_000);
});
