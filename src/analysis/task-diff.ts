/**
 * The per-task half of a run-to-run diff: each task id's sessions on both
 * sides (report section task_outcomes), and the tasks whose verdict changed.
 * A task passes on a side when it has an ended session with an outcome and
 * every such session passed (pass^k over its repeats and over the runs the
 * side merged). A scripted run (mock provider or a replayed recording) is
 * deterministic, so a PASS -> FAIL flip there is a regression by itself; a
 * live run's flips are listed, and the pass-rate significance test decides.
 */
import type { Row } from './duck.js';
import { findSection, type Analysis } from './report-model.js';

/** Providers whose answers are fixed by the suite: the mock and a replayed recording. */
const SCRIPTED_PROVIDERS = new Set(['mock', 'replay']);

/** When a PASS -> FAIL flip counts as a regression: on scripted runs only (default), always, or never. */
export type FlipGate = 'scripted' | 'always' | 'never';

export type TaskVerdict = 'pass' | 'fail' | 'unknown';

export interface TaskChange {
  task_id: string;
  base: string;
  candidate: string;
  /** Why the candidate failed: its first failed expectation `id: detail`, else the outcome and stop of its first failing session. */
  why: string | null;
}

export interface TaskDiff {
  /** Whether every run on that side used the mock or a replay (null: the side names no provider, e.g. an imported trace). */
  scripted: { base: boolean; candidate: boolean };
  /** Whether this diff counts flips as regressions (the --flips rule applied to these sides). */
  flips_are_regressions: boolean;
  compared: number;
  flipped: TaskChange[];
  fixed: TaskChange[];
  still_failing: string[];
  only_in_base: string[];
  only_in_candidate: string[];
  /** On both sides, but one side has no ended session with an outcome (cut short, or not recorded by the source). */
  not_compared: string[];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

export function taskVerdict(row: Row | undefined): TaskVerdict {
  if (!row) return 'unknown';
  if (num(row.not_passed) > 0) return 'fail';
  return num(row.passed) > 0 ? 'pass' : 'unknown';
}

/** `2 of 3 passed`, plus the sessions that count in neither. */
export function taskSessionsText(row: Row): string {
  const known = num(row.passed) + num(row.not_passed);
  const apart = [num(row.sessions_cut_short) > 0 ? `${num(row.sessions_cut_short)} cut short` : '', num(row.outcome_not_available_in_source) > 0 ? `${num(row.outcome_not_available_in_source)} without outcome` : ''].filter(Boolean);
  return `${num(row.passed)} of ${known} passed` + (apart.length > 0 ? ` (${apart.join(', ')})` : '');
}

/** Why a failing task failed, from its row: the first failed expectation, else the first failing session's outcome. */
export function taskFailureText(row: Row): string | null {
  if (typeof row.first_failed_expectation === 'string' && row.first_failed_expectation !== '') {
    const more = num(row.failed_expectations) > 1 ? ` (+${num(row.failed_expectations) - 1} more failed)` : '';
    return `${row.first_failed_expectation}: ${String(row.first_failed_detail ?? '')}${more}`;
  }
  return typeof row.first_not_passed === 'string' && row.first_not_passed !== '' ? row.first_not_passed : null;
}

function isScripted(a: Analysis): boolean {
  const runs = findSection(a, 'run_identity')?.rows ?? [];
  return runs.length > 0 && runs.every((r) => typeof r.provider === 'string' && SCRIPTED_PROVIDERS.has(r.provider));
}

export function diffTasks(base: Analysis, cand: Analysis, gate: FlipGate = 'scripted'): TaskDiff {
  const rows = (a: Analysis) => new Map((findSection(a, 'task_outcomes')?.rows ?? []).map((r) => [String(r.task_id), r]));
  const [b, c] = [rows(base), rows(cand)];
  const scripted = { base: isScripted(base), candidate: isScripted(cand) };
  const out: TaskDiff = {
    scripted,
    flips_are_regressions: gate === 'always' || (gate === 'scripted' && scripted.base && scripted.candidate),
    compared: 0,
    flipped: [],
    fixed: [],
    still_failing: [],
    only_in_base: [],
    only_in_candidate: [],
    not_compared: [],
  };
  for (const id of [...new Set([...b.keys(), ...c.keys()])].sort()) {
    const [br, cr] = [b.get(id), c.get(id)];
    if (!br || !cr) {
      (br ? out.only_in_base : out.only_in_candidate).push(id);
      continue;
    }
    const [bv, cv] = [taskVerdict(br), taskVerdict(cr)];
    if (bv === 'unknown' || cv === 'unknown') {
      out.not_compared.push(id);
      continue;
    }
    out.compared++;
    const change = (why: string | null): TaskChange => ({ task_id: id, base: taskSessionsText(br), candidate: taskSessionsText(cr), why });
    if (bv === 'pass' && cv === 'fail') out.flipped.push(change(taskFailureText(cr)));
    else if (bv === 'fail' && cv === 'pass') out.fixed.push(change(null));
    else if (bv === 'fail' && cv === 'fail') out.still_failing.push(id);
  }
  return out;
}

/** The regression line of one flipped task. */
export function flipText(f: TaskChange): string {
  return `task ${f.task_id}: PASS → FAIL (${f.base} → ${f.candidate})${f.why ? `: ${f.why}` : ''}`;
}
