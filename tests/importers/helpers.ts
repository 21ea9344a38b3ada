/** Test helpers for importers: run the CLI in-process, import fixtures, read a report as JSON. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { run } from '../../src/cli/program.js';

export const FIXTURES = resolve('tests/importers/fixtures');

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temporary directory, removed once the test file is done. */
export function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-import-test-'));
  dirs.push(dir);
  return dir;
}

export async function cli(args: string[], options: { stderrIsTTY?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { NO_COLOR: '1' },
    cwd: process.cwd(),
    isTTY: false,
    stderrIsTTY: options.stderrIsTTY ?? false,
  });
  return { code, stdout, stderr };
}

/** A written event as parsed JSON; `any` so assertions read fields of whichever event it is (the writer validated each against the contract). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EventLine = Record<string, any>;

export function readEvents(path: string): EventLine[] {
  return readFileSync(path, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as EventLine);
}

/** `faultline import <format> <paths> --out tmp`: the events written and the CLI's output. */
export async function importFixture(format: string, ...paths: string[]) {
  const out = join(scratch(), 'imported.jsonl');
  const result = await cli(['import', format, ...paths.map((p) => join(FIXTURES, p)), '--out', out]);
  return { ...result, out, events: result.code === 2 ? [] : readEvents(out) };
}

type Row = Record<string, unknown>;
export interface JsonReport {
  reconciliation: { lines_read: number; events_used: number; lines_quarantined: number; text: string };
  files: string[];
  imports: { file: string; format: string; records: number; used: number; skipped: Record<string, number>; quarantined: number; events: number }[];
  findings: { level: string; text: string }[];
  reports: Record<string, Record<string, { rows: Row[] }>>;
  quarantine: { file: string; line: number; kind: string; reason: string }[];
}

export async function jsonReport(args: string[]): Promise<JsonReport> {
  const r = await cli(['report', '--json', ...args]);
  if (r.code !== 0) throw new Error(`report exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as JsonReport;
}

export const rows = (report: JsonReport, reportId: string, section: string): Row[] => report.reports[reportId]?.[section]?.rows ?? [];
