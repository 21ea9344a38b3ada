/**
 * Verifies defenses the way the third job in docs/architecture.md defines it (docs/harness-rules.md#dead-defense: a defense
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
import { bubblewrapProblem } from '../../harness/sandbox/sandbox.js';
import type { LoadedTask } from '../load-suite.js';
import type { ModelSource } from '../model-source.js';
import { withoutDefenseExpectations } from './mutation-expectations.js';
import { runPhase, type ScenarioResult } from './run-phase.js';
import { commandReason, sandboxDenialReason } from './sandbox-needs.js';
import { armedFor, controlsOf, faultsOf, withDefenseOff, type DefenseUnderTest } from './scenario-plan.js';

export interface VerifiedDefense extends DefenseUnderTest {
  action: DefenseAction;
  origin: 'shipped' | 'user';
}

export interface Ratio {
  hits: number;
  total: number;
}

/** A scenario left out because this machine has no OS sandbox, and why it needs one. */
export interface SkippedScenario {
  scenario: string;
  /** `defense on`: the fault scenario or control as written; `defense off`: the mutation run. */
  run: 'defense on' | 'defense off';
  /** What the scenario is for this defense. */
  role: 'fault' | 'control';
  reason: string;
}

/** One scenario run judged for a defense. */
export interface ScenarioCheck {
  scenario: string;
  suite: string;
  run: 'defense on' | 'defense off';
  role: 'fault' | 'control';
  ok: boolean;
  problems: string[];
  durationMs: number;
}

/** verified: every check ran and held; partly_verified: what ran held, some scenarios were skipped (no OS sandbox); skipped: nothing could run. */
export type VerdictStatus = 'verified' | 'partly_verified' | 'skipped' | 'not_verified';

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
  /** Every scenario run judged for this defense, with its own problems (what JUnit output lists as test cases). */
  checks: ScenarioCheck[];
  /** Scenarios not judged for want of an OS sandbox (empty where bubblewrap works). */
  skipped: SkippedScenario[];
  /** No problem in what ran (skipped scenarios are listed, not counted against the defense). */
  verified: boolean;
  status: VerdictStatus;
}

export interface VerifyOptions {
  defenses: readonly VerifiedDefense[];
  tasks: readonly LoadedTask[];
  source: ModelSource;
  concurrency?: number;
  /** Sandbox of the mutation runs (default `required`). */
  mutationSandbox?: SandboxMode;
  tempDir?: string;
  /** Why this machine has no OS sandbox, or null (default: probe bubblewrap, as every session does). */
  sandboxProblem?: string | null;
  /** Aborts the running sessions and starts no more: verifyDefenses then throws the signal's reason (no verdict from a part). */
  signal?: AbortSignal;
  onProgress?: (phase: 'scenarios' | 'mutations', result: ScenarioResult) => void;
}

export async function verifyDefenses(options: VerifyOptions): Promise<DefenseVerdict[]> {
  const { defenses, tasks } = options;
  const concerned = (t: LoadedTask) => defenses.filter((d) => t.defense === d.name || t.control_for?.includes(d.name));
  const scenarios = tasks.filter((t) => concerned(t).length > 0);
  const phase = { source: options.source, concurrency: options.concurrency ?? 4, tempDir: options.tempDir, signal: options.signal };
  const mode = options.mutationSandbox ?? 'required';
  const problem = options.sandboxProblem !== undefined ? options.sandboxProblem : bubblewrapProblem();
  const skips = new Map<LoadedTask, Omit<SkippedScenario, 'role'>[]>();
  const original = new Map(scenarios.map((t) => [t.id + '\0' + t.file, t]));
  const skip = (task: LoadedTask, run: SkippedScenario['run'], reason: string) => {
    const key = original.get(task.id + '\0' + task.file) ?? task;
    skips.set(key, [...(skips.get(key) ?? []), { scenario: task.id, run, reason }]);
  };

  const armedAll = await runPhase(
    scenarios.map((t) => armedFor(t, concerned(t))),
    { ...phase, onDone: (r) => options.onProgress?.('scenarios', r) },
  );
  options.signal?.throwIfAborted();
  // A session the chain constrained only for want of a sandbox shows nothing about the defense: set aside, named.
  const armed = armedAll.filter((r) => {
    const why = problem !== null ? sandboxDenialReason(r.denials) : null;
    if (why) skip(r.task, 'defense on', why);
    return why === null;
  });
  const armedIds = new Set(armed.map((r) => r.task.id + '\0' + r.task.file));
  const mutationTasks = scenarios.flatMap((t) => {
    const d = defenses.find((x) => x.name === t.defense);
    if (!d) return [];
    if (!armedIds.has(t.id + '\0' + t.file)) {
      skip(t, 'defense off', 'its run with the defense on needs an OS sandbox (above), so its run with the defense off would prove nothing');
      return [];
    }
    const needs = problem !== null && mode === 'required' ? commandReason(t, d.name) : null;
    if (needs) {
      skip(t, 'defense off', needs);
      return [];
    }
    return [withoutDefenseExpectations(withDefenseOff(armedFor(t, [d]), d.name), d.action)];
  });
  const mutatedAll = await runPhase(mutationTasks, {
    ...phase,
    // Without a sandbox, `required` still runs the scenarios that start no process (nothing to confine).
    sandbox: problem !== null && mode === 'required' ? 'off' : mode,
    onDone: (r) => options.onProgress?.('mutations', r),
  });
  options.signal?.throwIfAborted();
  const mutated = mutatedAll.filter((r) => {
    const why = problem !== null && r.outcome !== 'passed' ? sandboxDenialReason(r.denials) : null;
    if (why) skip(r.task, 'defense off', why);
    return why === null;
  });

  return defenses.map((d) =>
    verdictOf(
      d,
      armed,
      mutated,
      scenarios.flatMap((t) => (concerned(t).includes(d) ? (skips.get(t) ?? []).map((s) => ({ ...s, role: t.defense === d.name ? ('fault' as const) : ('control' as const) })) : [])),
    ),
  );
}

function verdictOf(d: VerifiedDefense, armed: ScenarioResult[], mutated: ScenarioResult[], skipped: SkippedScenario[]): DefenseVerdict {
  const faults = armed.filter((r) => faultsOf([r.task], d.name).length > 0);
  const controls = armed.filter((r) => controlsOf([r.task], d.name).length > 0);
  const mutations = mutated.filter((r) => r.task.defense === d.name);
  const problems: string[] = [];
  const checks: ScenarioCheck[] = [];
  // Each run is one check; its problems (if any) name the scenario, and the verdict lists them all.
  const check = (r: ScenarioResult, run: ScenarioCheck['run'], role: ScenarioCheck['role'], found: string[]) => {
    checks.push({ scenario: r.task.id, suite: r.task.suite, run, role, ok: found.length === 0, problems: found, durationMs: r.durationMs });
    problems.push(...found.map((p) => `${r.task.id}: ${p}`));
  };
  const skippedAs = (role: SkippedScenario['role']) => skipped.some((s) => s.run === 'defense on' && s.role === role);
  if (faults.length === 0 && !skippedAs('fault')) problems.push(`no fault scenario names it (add \`defense: ${d.name}\` to a task that must make it fire)`);
  if (controls.length === 0 && !skippedAs('control')) problems.push(`no control names it (add \`control_for: [${d.name}]\` to legitimate work of the same shape)`);
  for (const r of faults) {
    const found: string[] = [];
    if (!r.fired.has(d.name)) found.push('did not fire on this fault scenario');
    if (r.outcome !== 'passed') found.push(`the fault scenario ${r.outcome} with the defense on: ${r.failures.join('; ')}`);
    check(r, 'defense on', 'fault', found);
  }
  for (const r of controls) {
    if (r.fired.has(d.name)) check(r, 'defense on', 'control', ['fired on this control (a false positive)']);
    else check(r, 'defense on', 'control', r.outcome !== 'passed' ? [`the control ${r.outcome}: ${r.failures.join('; ')}`] : []);
  }
  for (const r of mutations) {
    if (r.outcome === 'passed') check(r, 'defense off', 'fault', ['passes with the defense off (the mutation survives: the scenario does not show what the defense prevents)']);
    else check(r, 'defense off', 'fault', r.outcome === 'error' ? [`could not run with the defense off: ${r.failures.join('; ')}`] : []);
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
    checks,
    skipped,
    verified: problems.length === 0,
    status: statusOf(problems.length, skipped.length, faults.length + controls.length + mutations.length),
  };
}

function statusOf(problems: number, skipped: number, judged: number): VerdictStatus {
  if (problems > 0) return 'not_verified';
  if (skipped === 0) return 'verified';
  return judged === 0 ? 'skipped' : 'partly_verified';
}
