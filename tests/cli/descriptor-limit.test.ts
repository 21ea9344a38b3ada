/**
 * A run loses no task to descriptor exhaustion, whatever its concurrency:
 * the real CLI, in a child whose hard descriptor limit is low (256: Node
 * raises the soft limit only up to the hard one), runs a few hundred
 * read+edit tasks all at once. Every task must pass and the trace must hold
 * every session. Before the process-wide descriptor budget
 * (src/harness/safe-fs/fd-budget.ts) the same run lost 67 of 300 tasks at
 * this limit (edit failing with EMFILE), on one thread and on two.
 *
 * Over HTTP (`--transport http`: the official SDK through fetch to the mock's
 * loopback server in the same process) every connection costs two more
 * descriptors and stays open between calls: before the SDK clients' pool was
 * bounded and counted in the budget (src/suites/connection-pool.ts) this
 * run lost tasks to model calls failing with `connection` errors (EMFILE on
 * connect) and did not finish within the test's minute.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { underDescriptorLimit } from '../helpers/descriptor-limit.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { typoSuiteYaml } from '../helpers/typo-suite.js';

const LIMIT = 256;
const TASKS = 300;

function suite(dir: string): string {
  const file = join(dir, 'suite.yaml');
  writeFileSync(file, typoSuiteYaml('descriptor-limit', TASKS));
  return file;
}

function runLimited(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [file, argv] = underDescriptorLimit(LIMIT, [process.execPath, '--import', 'tsx', 'src/cli/bin.ts', ...args]);
  const child = spawn(file, argv, { cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe(`run -j ${TASKS} under a hard limit of ${LIMIT} descriptors`, () => {
  const cases = [
    { workers: '1', transport: 'memory' },
    { workers: '2', transport: 'memory' },
    { workers: '1', transport: 'http' },
    { workers: '2', transport: 'http' },
  ];
  for (const { workers, transport } of cases) {
    it(`loses no task on ${workers} worker thread(s), ${transport} transport`, async () => {
      const dir = tempDir();
      const trace = join(dir, 't.jsonl');
      const ran = await runLimited(['run', suite(dir), '-j', String(TASKS), '--workers', workers, '--transport', transport, '--out', trace]);
      // With stderr: a run that ends short says why there (a worker thread that stopped, a signal).
      expect(ran.stdout, ran.stderr).toContain(`${TASKS} passed, 0 failed`);
      expect(ran.code, ran.stderr).toBe(0);
      const events = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string; task_id?: string; outcome?: string });
      const ends = events.filter((e) => e.event === 'session_end');
      expect(new Set(ends.map((e) => e.task_id)).size).toBe(TASKS);
      expect(ends.every((e) => e.outcome === 'passed')).toBe(true);
      expect(events.filter((e) => e.event === 'tool_failure')).toEqual([]);
      expect(events.filter((e) => e.event === 'model_error')).toEqual([]);
    }, 60_000);
  }
});
