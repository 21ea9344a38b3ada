/**
 * The lab writes `<trace>.requests.jsonl` beside its trace in traces/. Every
 * command that reads a trace folder passes that sidecar over: `report
 * traces/` quarantines nothing, `validate traces/` passes, `diff`, `query`
 * and `compact` read the one trace. A trace with a dot in its name is still a
 * trace, and naming a sidecar itself is a usage error that names its trace.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { bundleOwnHarness, LAB_SUITES, PROTOCOL_SUITE } from './lab-run.js';

let bundle: { file: string; remove(): void };
let cwd: string;
let trace: string;

function io(): CliIo & { out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' }, cwd, isTTY: false, out: () => out.join(''), err: () => err.join('') };
}

async function cli(args: string[]) {
  const c = io();
  const code = await run(args, c);
  return { code, stdout: c.out(), stderr: c.err() };
}

beforeAll(async () => {
  bundle = await bundleOwnHarness();
  cwd = tempDir();
  // The README's flow: the lab's default output goes to traces/ under the working directory.
  const lab = await cli(['lab', '--suite', PROTOCOL_SUITE, '--task', 'lab-parallel-reads', '--', 'node', bundle.file, '--suite', LAB_SUITES]);
  expect(lab.code).toBe(0);
  const names = readdirSync(join(cwd, 'traces')).sort();
  expect(names).toEqual([expect.stringMatching(/^lab-.*\.jsonl$/), expect.stringMatching(/^lab-.*\.requests\.jsonl$/)]);
  trace = join(cwd, 'traces', names.find((n) => !n.includes('.requests.'))!);
}, 120_000);
afterAll(() => bundle?.remove());

describe('the lab request log beside a trace is not a trace', () => {
  it('report traces/ reads the one trace and quarantines nothing', async () => {
    const { code, stdout } = await cli(['report', 'traces/', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { files: string[]; quarantine: unknown[] };
    expect(report.files).toEqual([trace]);
    expect(report.quarantine).toEqual([]);
    expect((await cli(['report', 'traces/', '--strict'])).code).toBe(0);
  });

  it('validate traces/ passes', async () => {
    const { code, stdout, stderr } = await cli(['validate', 'traces/']);
    expect(stderr).toBe('');
    expect(stdout).not.toContain('requests');
    expect(code).toBe(0);
  });

  it('diff, query and compact read the folder as its one trace', async () => {
    expect((await cli(['diff', 'traces/', 'traces/', '--strict'])).code).toBe(0);
    const q = await cli(['query', 'SELECT count(DISTINCT session_id) AS n FROM events', 'traces/', '--json']);
    expect(q.code).toBe(0);
    expect((JSON.parse(q.stdout) as { rows: unknown[]; quarantined: number })).toMatchObject({ rows: [{ n: 1 }], quarantined: 0 });
    const parquet = join(tempDir(), 'lab.parquet');
    const compact = await cli(['compact', 'traces/', '--to', parquet]);
    expect(compact.stderr).not.toMatch(/quarantin/);
    expect(compact.code).toBe(0);
    expect(existsSync(parquet)).toBe(true);
  });

  it('a trace with a dot in its name is still read, next to a sidecar whose trace is gone', async () => {
    const dir = tempDir();
    copyFileSync(trace, join(dir, 'demo.v2.jsonl'));
    copyFileSync(trace, join(dir, 'demo.jsonl'));
    copyFileSync(trace.replace(/\.jsonl$/, '.requests.jsonl'), join(dir, 'old-run.requests.jsonl'));
    const { code, stdout } = await cli(['report', dir, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { files: string[]; quarantine: unknown[] };
    expect(report.files.sort()).toEqual([join(dir, 'demo.jsonl'), join(dir, 'demo.v2.jsonl')]);
    expect(report.quarantine).toEqual([]);
  });

  it('naming the sidecar itself is a usage error that names its trace', async () => {
    const sidecar = trace.replace(/\.jsonl$/, '.requests.jsonl');
    const { code, stderr } = await cli(['report', sidecar]);
    expect(code).toBe(2);
    expect(stderr).toContain('a sidecar written beside the trace');
    expect(stderr).toContain(trace.slice(cwd.length + 1));
  });
});
