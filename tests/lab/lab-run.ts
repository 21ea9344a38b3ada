/** Test helpers for the lab: faultline's own harness bundled once into one file (fast to start), and a lab run collected in memory. */
import { rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { build } from 'rolldown';
import { MemorySink, type FaultlineEvent } from '../../src/events/index.js';
import type { ConformanceCheck } from '../../src/events/labels.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { runLab, type LabOptions, type LabSummary } from '../../src/suites/lab/run-lab.js';

export const ROOT = join(import.meta.dirname, '../..');
export const LAB_SUITES = join(ROOT, 'suites/lab');
export const PROTOCOL_SUITE = join(LAB_SUITES, 'protocol.yaml');
export const LAB_TASKS = loadSuites([LAB_SUITES]);

export function labTasks(...ids: string[]): LoadedTask[] {
  return ids.length === 0 ? LAB_TASKS : ids.map((id) => LAB_TASKS.find((t) => t.id === id) ?? (() => { throw new Error(`no lab task ${id}`); })());
}

/**
 * The harness fixture bundled (node_modules stay external): started with
 * plain node it loads in well under a second, where tsx would transpile the
 * whole source tree on every start. Written at the repository root so its
 * relative lookups (../package.json, tree-sitter's wasm) resolve as from src.
 */
export async function bundleOwnHarness(): Promise<{ file: string; remove(): void }> {
  const file = join(ROOT, '.vitest-tmp', `own-harness-${process.pid}-${Date.now()}.mjs`);
  await build({
    input: join(ROOT, 'tests/lab/fixtures/own-harness.ts'),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    output: { file, format: 'esm' },
    logLevel: 'silent',
  });
  return { file, remove: () => rmSync(file, { force: true }) };
}

export function ownHarness(bundle: string, options: { wire?: string; bug?: string; stream?: boolean; json?: boolean } = {}): string[] {
  const suiteArgs = ['--suite', LAB_SUITES];
  return ['node', bundle, ...suiteArgs, ...(options.wire ? ['--wire', options.wire] : []), ...(options.bug ? ['--bug', options.bug] : []), ...(options.stream ? ['--stream'] : []), ...(options.json ? ['--json'] : [])];
}

export interface LabRun {
  summary: LabSummary;
  events: FaultlineEvent[];
  /** Checks with at least one violation, over all sessions. */
  violated: ConformanceCheck[];
}

export async function lab(command: string[], tasks: LoadedTask[], options: Partial<LabOptions> = {}): Promise<LabRun> {
  const sink = new MemorySink();
  const summary = await runLab({ tasks, command, sink, env: { PATH: process.env['PATH'] ?? '' }, timeoutMs: 30_000, graceMs: 1_000, ...options });
  const violated = [...new Set(summary.sessions.flatMap((s) => s.tallies.filter((t) => t.violations.length > 0).map((t) => t.check)))].sort();
  return { summary, events: [...sink.events()], violated };
}

export const details = (run: LabRun): string[] => run.summary.sessions.flatMap((s) => s.tallies.flatMap((t) => t.violations.map((v) => `${s.task.id}: ${v.check}: ${v.detail}`)));
