/**
 * `faultline verify-defense` over the shipped catalog (the third job in docs/architecture.md): every
 * shipped defense fires on its fault scenarios, on none of its controls, and
 * each fault scenario fails with it off. And the check can fail: a defense
 * whose trigger is deleted (armed and evaluated, never acting — the F1 dead
 * defense) is reported as not verified, for every shipped defense.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { SHIPPED_DEFENSES } from '../../src/harness/defenses/registry.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { shippedSuitePaths } from '../../src/suites/verify/shipped-suites.js';
import { verifyDefenses } from '../../src/suites/verify/verify-defense.js';
import { cli } from '../cli/cli-io.js';

const tasks = loadSuites(shippedSuitePaths());
const source = mockModelSource();
afterAll(() => source.close());

/** The task with the defense's trigger deleted: still armed and evaluated, never acting. */
const deadTrigger = (task: LoadedTask, defense: string): LoadedTask => ({
  ...task,
  harness_faults: { ...task.harness_faults, dead_defenses: [...(task.harness_faults?.dead_defenses ?? []), defense] },
});

describe('faultline verify-defense', () => {
  it('verifies every shipped defense over the shipped catalog and exits 0 (--all --json)', async () => {
    const { code, stdout, stderr } = await cli(['verify-defense', '--all', '--json', '-j', '4']);
    const report = JSON.parse(stdout) as { verified: boolean; sandbox_problem: string | null; defenses: Array<{ defense: string; verified: boolean; status: string; skipped: unknown[]; problems: string[]; recall: { hits: number; total: number } }> };
    // Where bubblewrap works nothing is skipped: every scenario and every run with a defense off is judged.
    expect(report.sandbox_problem).toBeNull();
    expect(report.defenses.flatMap((d) => d.skipped)).toEqual([]);
    expect(report.defenses.every((d) => d.status === 'verified')).toBe(true);
    expect(report.defenses.filter((d) => !d.verified).map((d) => `${d.defense}: ${d.problems.join('; ')}`), stderr).toEqual([]);
    expect(report.defenses.map((d) => d.defense).sort()).toEqual(SHIPPED_DEFENSES.map((d) => d.name).sort());
    expect(report.defenses.every((d) => d.recall.total > 0 && d.recall.hits === d.recall.total)).toBe(true);
    expect(code).toBe(0);
  }, 300_000);

  it('reports each shipped defense as not verified once its trigger is deleted', async () => {
    const defenses = SHIPPED_DEFENSES.map((d) => ({ name: d.name, defaultOn: d.defaultOn, action: d.action, origin: 'shipped' as const }));
    const verdicts = [];
    for (const d of defenses) {
      // Its own fault scenarios only: the recall phase is what a deleted trigger breaks.
      const faults = tasks.filter((t) => t.defense === d.name).map((t) => deadTrigger(t, d.name));
      const [verdict] = await verifyDefenses({ defenses: [d], tasks: faults, source, concurrency: 4 });
      verdicts.push(verdict!);
    }
    for (const v of verdicts) {
      expect(v.verified, v.defense).toBe(false);
      expect(v.recall.hits, v.defense).toBe(0);
      expect(v.problems.some((p) => p.endsWith('did not fire on this fault scenario')), v.defense).toBe(true);
    }
  }, 300_000);

  it('exits 1 through the CLI when a defense does not fire, naming the scenario', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-verify-'));
    try {
      const file = join(import.meta.dirname, '../../suites/faults/loop-identical-call-loop.yaml');
      const suite = load(readFileSync(file, 'utf8')) as { tasks: Array<Record<string, unknown>> };
      for (const task of suite.tasks) task.harness_faults = { dead_defenses: ['identical_call_loop'] };
      writeFileSync(join(dir, 'dead.yaml'), dump(suite));
      const { code, stdout } = await cli(['verify-defense', 'identical_call_loop', '--suite', dir]);
      expect(stdout).toMatch(/identical_call_loop +hint +on +0\/1 0%/);
      expect(stdout).toContain('loop-005-identical-call-loop: did not fire on this fault scenario');
      expect(stdout).toContain('no control names it');
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses an unknown defense name with a suggestion (exit 2)', async () => {
    const { code, stderr } = await cli(['verify-defense', 'identical_cal_loop']);
    expect(stderr).toContain('unknown defense "identical_cal_loop" (did you mean identical_call_loop?)');
    expect(code).toBe(2);
  });
});
