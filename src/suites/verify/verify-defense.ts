/**
 * Verifies defenses the way DESIGN §1 job 3 defines it (seed §13.1: a defense
 * that has never been seen to fire is no defense):
 *   recall          it fires on every fault scenario that names it;
 *   false positives it fires on none of its controls (legitimate work of the same shape);
 *   mutation        every fault scenario fails with the defense switched off
 *                   (judged without the defense's own trigger counts, see
 *                   mutation-expectations.ts) — one that passes either way proves nothing.
 * Fault and control scenarios must also pass their own checks with the
 * defense on. Scenarios run once each with everything armed as written, then
 * the fault scenarios again, each with its defense off, inside the OS sandbox
 * (a dangerous-command defense switched off would otherwise let `rm -rf /` run).
 */
import type { DefenseAction, SandboxMode } from '../../events/labels.js';
import type { LoadedTask } from '../load-suite.js';
import type { ModelSource } from '../model-source.js';
import { withoutDefenseExpectations } from './mutation-expectations.js';
import { runPhase, type ScenarioResult } from './run-phase.js';
import { armedFor, controlsOf, faultsOf, withDefenseOff, type DefenseUnderTest } from './scenario-plan.js';

export interface VerifiedDefense extends DefenseUnderTest {
  action: DefenseAction;
  origin: 'shipped' | 'user';
}

export interface Ratio {
  hits: number;
  total: number;
}

export interface DefenseVerdict {
  defense: string;
  action: DefenseAction;
  origin: 'shipped' | 'user';
  defaultOn: boolean;
  /** Fault scenarios where it fired. */
  recall: Ratio;
  /** Controls where it fired. */
  falsePositives: Ratio;
  /** Fault scenarios that failed with the defense off. */
  mutationsKilled: Ratio;
  /** One line per reason the defense is not verified (a scenario id and what went wrong). */
  problems: string[];
  verified: boolean;
}

export interface VerifyOptions {
  defenses: readonly VerifiedDefense[];
  tasks: readonly LoadedTask[];
  source: ModelSource;
  concurrency?: number;
  /** Sandbox of the mutation runs (default `required`). */
  mutationSandbox?: SandboxMode;
  tempDir?: string;
  onProgress?: (phase: 'scenarios' | 'mutations', result: ScenarioResult) => void;
}

export async function verifyDefenses(options: VerifyOptions): Promise<DefenseVerdict[]> {
  const { defenses, tasks } = options;
  const concerned = (t: LoadedTask) => defenses.filter((d) => t.defense === d.name || t.control_for?.includes(d.name));
  const scenarios = tasks.filter((t) => concerned(t).length > 0);
  const phase = { source: options.source, concurrency: options.concurrency ?? 4, tempDir: options.tempDir };

  const armed = await runPhase(
    scenarios.map((t) => armedFor(t, concerned(t))),
    { ...phase, onDone: (r) => options.onProgress?.('scenarios', r) },
  );
  const mutationTasks = scenarios.flatMap((t) => {
    const d = defenses.find((x) => x.name === t.defense);
    return d ? [withoutDefenseExpectations(withDefenseOff(armedFor(t, [d]), d.name), d.action)] : [];
  });
  const mutated = await runPhase(mutationTasks, {
    ...phase,
    sandbox: options.mutationSandbox ?? 'required',
    onDone: (r) => options.onProgress?.('mutations', r),
  });

  return defenses.map((d) => verdictOf(d, armed, mutated));
}

function verdictOf(d: VerifiedDefense, armed: ScenarioResult[], mutated: ScenarioResult[]): DefenseVerdict {
  const faults = armed.filter((r) => faultsOf([r.task], d.name).length > 0);
  const controls = armed.filter((r) => controlsOf([r.task], d.name).length > 0);
  const mutations = mutated.filter((r) => r.task.defense === d.name);
  const problems: string[] = [];
  if (faults.length === 0) problems.push(`no fault scenario names it (add \`defense: ${d.name}\` to a task that must make it fire)`);
  if (controls.length === 0) problems.push(`no control names it (add \`control_for: [${d.name}]\` to legitimate work of the same shape)`);
  for (const r of faults) {
    if (!r.fired.has(d.name)) problems.push(`${r.task.id}: did not fire on this fault scenario`);
    if (r.outcome !== 'passed') problems.push(`${r.task.id}: the fault scenario ${r.outcome} with the defense on: ${r.failures.join('; ')}`);
  }
  for (const r of controls) {
    if (r.fired.has(d.name)) problems.push(`${r.task.id}: fired on this control (a false positive)`);
    else if (r.outcome !== 'passed') problems.push(`${r.task.id}: the control ${r.outcome}: ${r.failures.join('; ')}`);
  }
  for (const r of mutations) {
    if (r.outcome === 'passed') problems.push(`${r.task.id}: passes with the defense off (the mutation survives: the scenario does not show what the defense prevents)`);
    else if (r.outcome === 'error') problems.push(`${r.task.id}: could not run with the defense off: ${r.failures.join('; ')}`);
  }
  return {
    defense: d.name,
    action: d.action,
    origin: d.origin,
    defaultOn: d.defaultOn,
    recall: { hits: faults.filter((r) => r.fired.has(d.name)).length, total: faults.length },
    falsePositives: { hits: controls.filter((r) => r.fired.has(d.name)).length, total: controls.length },
    mutationsKilled: { hits: mutations.filter((r) => r.outcome === 'failed').length, total: mutations.length },
    problems,
    verified: problems.length === 0,
  };
}
