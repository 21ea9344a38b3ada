/**
 * Run-to-run diff computed from two analyses' report rows: tasks that
 * flipped PASS -> FAIL (task-diff.ts), per-tool p95 change, failure-kind rate change, defense trigger change and
 * pass-rate change with Wilson intervals. A regression is a change a reader
 * must act on; ambiguous changes (e.g. tool_error up, docs/harness-rules.md#failure-kinds) are shown, not
 * flagged.
 */
import type { Row } from './duck.js';
import { findSection, type Analysis, type InputFile } from './report-model.js';
import { diffTasks, flipText, type FlipGate, type TaskDiff } from './task-diff.js';
import { newcombeDiff, wilson } from './wilson.js';

export interface DiffOptions {
  /** Relative p95 increase that counts as a regression (0.2 = +20%). */
  p95Threshold?: number;
  /** Fewest executed calls on both sides before a p95 change can be a regression. */
  minCalls?: number;
  /** When a task's PASS -> FAIL flip is a regression (task-diff.ts): default on scripted runs only. */
  flips?: FlipGate;
}

/** Failure kinds whose significant rise is a regression; tool_error and pre-execution kinds are context-dependent. */
const REGRESSING_KINDS = new Set(['exception', 'timeout']);

/** What one side of a diff read: its files, its books, and how many sessions it holds (0 refuses the diff). */
export interface DiffSide {
  inputs: InputFile[];
  lines_read: number;
  events_used: number;
  lines_quarantined: number;
  sessions: number;
}

export interface DiffResult {
  sides: { base: DiffSide; candidate: DiffSide };
  tables: { id: string; title: string; columns: string[]; rows: Row[] }[];
  /** Per task id: flips, fixes, tasks on one side only. */
  tasks: TaskDiff;
  regressions: string[];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const byKey = (rows: Row[], key: (r: Row) => string) => new Map(rows.map((r) => [key(r), r]));
const rowsOf = (a: Analysis, id: string): Row[] => findSection(a, id)?.rows ?? [];

/** Sessions seen at all, started or ended (an imported trace may have only ends). */
export function sessionCount(a: Analysis): number {
  const s = findSection(a, 'session_summary')?.rows[0] ?? {};
  return Math.max(num(s.sessions_started), num(s.sessions_ended));
}

export function diffSide(a: Analysis): DiffSide {
  return { inputs: a.inputs, lines_read: a.load.linesRead, events_used: a.load.eventsUsed, lines_quarantined: a.load.quarantined.length, sessions: sessionCount(a) };
}

export function diffAnalyses(base: Analysis, cand: Analysis, options: DiffOptions = {}): DiffResult {
  const threshold = options.p95Threshold ?? 0.2;
  const minCalls = options.minCalls ?? 20;
  const regressions: string[] = [];

  // Per task first: on a scripted suite a PASS -> FAIL flip is the regression a gate exists for.
  const tasks = diffTasks(base, cand, options.flips);
  if (tasks.flips_are_regressions) regressions.push(...tasks.flipped.map(flipText));

  // Pass rate over ended sessions, Wilson 95% per side, Newcombe for the change.
  const bs = rowsOf(base, 'session_summary')[0] ?? {};
  const cs = rowsOf(cand, 'session_summary')[0] ?? {};
  // Over sessions whose outcome is known: an imported session whose source records none is neither a pass nor a fail.
  const withOutcome = (s: Row) => num(s.sessions_ended) - num(s.sessions_outcome_not_available_in_source);
  const [bk, bn, ck, cn] = [num(bs.passed), withOutcome(bs), num(cs.passed), withOutcome(cs)];
  const bw = wilson(bk, bn);
  const cw = wilson(ck, cn);
  const change = newcombeDiff(bk, bn, ck, cn);
  if (bn > 0 && cn > 0 && change.high < 0) regressions.push(`pass rate fell from ${pct(bk / bn)} to ${pct(ck / cn)} (95% CI of change ${pct(change.low)} .. ${pct(change.high)})`);
  const passRows: Row[] = [
    {
      base_passed: bk, base_sessions: bn, base_pass_rate_of_ended_sessions: bn ? bk / bn : null, base_pass_rate_ci95_low: bw.low, base_pass_rate_ci95_high: bw.high,
      candidate_passed: ck, candidate_sessions: cn, candidate_pass_rate_of_ended_sessions: cn ? ck / cn : null, candidate_pass_rate_ci95_low: cw.low, candidate_pass_rate_ci95_high: cw.high,
      pass_rate_change: bn && cn ? ck / cn - bk / bn : null, pass_rate_change_ci95_low: change.low, pass_rate_change_ci95_high: change.high,
    },
  ];

  // Per-tool p95 over executed calls.
  const bl = byKey(rowsOf(base, 'tool_latency'), (r) => String(r.tool));
  const cl = byKey(rowsOf(cand, 'tool_latency'), (r) => String(r.tool));
  const latencyRows: Row[] = [];
  for (const tool of [...new Set([...bl.keys(), ...cl.keys()])].sort()) {
    const b = bl.get(tool);
    const c = cl.get(tool);
    const bp = b ? num(b.p95_ms_of_executed) : null;
    const cp = c ? num(c.p95_ms_of_executed) : null;
    const rel = bp && cp !== null ? cp / bp - 1 : null;
    latencyRows.push({ tool, base_executed_calls: b ? num(b.executed_calls) : 0, base_p95_ms: bp, candidate_executed_calls: c ? num(c.executed_calls) : 0, candidate_p95_ms: cp, p95_change_rate: rel });
    if (rel !== null && rel > threshold && num(b?.executed_calls) >= minCalls && num(c?.executed_calls) >= minCalls) {
      regressions.push(`tool ${tool}: p95 ${fmt(bp)} ms -> ${fmt(cp)} ms (+${pct(rel)})`);
    }
  }

  // Failure-kind rates over all tool calls, per kind.
  const callsOf = (a: Analysis) => num(rowsOf(a, 'tool_funnel').find((r) => r.tool === '(all tools)')?.calls);
  const [bCalls, cCalls] = [callsOf(base), callsOf(cand)];
  const bk2 = byKey(rowsOf(base, 'failure_kind_totals'), (r) => String(r.failure_kind));
  const ck2 = byKey(rowsOf(cand, 'failure_kind_totals'), (r) => String(r.failure_kind));
  const kindRows: Row[] = [];
  for (const [kind, b] of bk2) {
    const c = ck2.get(kind);
    const [bf, cf] = [num(b.failures), num(c?.failures)];
    const ci = newcombeDiff(bf, bCalls, cf, cCalls);
    kindRows.push({ phase: b.phase ?? null, failure_kind: kind, base_failures: bf, base_rate_of_all_calls: bCalls ? bf / bCalls : null, candidate_failures: cf, candidate_rate_of_all_calls: cCalls ? cf / cCalls : null, rate_change_ci95_low: ci.low, rate_change_ci95_high: ci.high });
    if (REGRESSING_KINDS.has(kind) && bCalls > 0 && cCalls > 0 && ci.low > 0) regressions.push(`failure kind ${kind}: rate of all calls ${pct(bf / bCalls)} -> ${pct(cf / cCalls)} (95% CI of change ${pct(ci.low)} .. ${pct(ci.high)})`);
  }
  const lostOf = (a: Analysis) => num(rowsOf(a, 'tool_funnel').find((r) => r.tool === '(all tools)')?.lost);
  if (lostOf(cand) !== 0 && lostOf(cand) !== lostOf(base)) regressions.push(`lost tool calls: ${lostOf(base)} -> ${lostOf(cand)} (must be 0)`);

  // Defense triggers and triage.
  const bd = byKey(rowsOf(base, 'defenses'), (r) => String(r.defense));
  const cd = byKey(rowsOf(cand, 'defenses'), (r) => String(r.defense));
  const defenseRows: Row[] = [];
  for (const [defense, b] of bd) {
    const c = cd.get(defense) ?? {};
    defenseRows.push({ defense, base_triggers: num(b.triggers), base_trigger_rate_of_evaluations: b.trigger_rate_of_evaluations ?? null, base_triage: b.triage ?? null, candidate_triggers: num(c.triggers), candidate_trigger_rate_of_evaluations: c.trigger_rate_of_evaluations ?? null, candidate_triage: c.triage ?? null });
    if (b.triage === 'firing' && c.triage === 'unwired') regressions.push(`defense ${defense}: was firing, now unwired (armed but never evaluated)`);
  }

  // Which runs each side merged (shards of a logical run, traces killed mid-run), so a diff of partial inputs shows as such.
  const runsRow = (a: Analysis) => rowsOf(a, 'run_summary')[0] ?? {};
  const logicalRows = (a: Analysis) => rowsOf(a, 'logical_runs');
  const shardText = (a: Analysis) =>
    logicalRows(a)
      .map((r) => `${String(r.logical_run_id)} (${num(r.shards_seen)}/${num(r.shards_expected)} shards)`)
      .join(', ') || '—';
  const runRows: Row[] = [
    {
      base_runs: num(runsRow(base).runs), base_logical_runs: shardText(base), base_sessions_cut_short: num(runsRow(base).sessions_cut_short),
      candidate_runs: num(runsRow(cand).runs), candidate_logical_runs: shardText(cand), candidate_sessions_cut_short: num(runsRow(cand).sessions_cut_short),
    },
  ];

  return {
    sides: { base: diffSide(base), candidate: diffSide(cand) },
    tables: [
      { id: 'runs', title: 'Runs merged on each side (shards of a logical run keep their run ids; cut-short sessions count in no pass rate)', columns: Object.keys(runRows[0] as Row), rows: runRows },
      { id: 'pass_rate', title: 'Pass rate (ended sessions) with Wilson 95% intervals; change with Newcombe 95% interval', columns: Object.keys(passRows[0] as Row), rows: passRows },
      { id: 'p95', title: `Per-tool p95 (executed calls); regression when > +${pct(threshold)} with >= ${minCalls} calls each side`, columns: ['tool', 'base_executed_calls', 'base_p95_ms', 'candidate_executed_calls', 'candidate_p95_ms', 'p95_change_rate'], rows: latencyRows },
      { id: 'failure_kinds', title: 'Failure-kind rates over all tool calls', columns: ['phase', 'failure_kind', 'base_failures', 'base_rate_of_all_calls', 'candidate_failures', 'candidate_rate_of_all_calls', 'rate_change_ci95_low', 'rate_change_ci95_high'], rows: kindRows },
      { id: 'defenses', title: 'Defense triggers', columns: ['defense', 'base_triggers', 'base_trigger_rate_of_evaluations', 'base_triage', 'candidate_triggers', 'candidate_trigger_rate_of_evaluations', 'candidate_triage'], rows: defenseRows },
    ],
    tasks,
    regressions,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(1));
