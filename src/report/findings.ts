/**
 * Findings a reader must not miss, derived from the report rows: numbers
 * that are 0 by construction when nothing is broken (lost calls, seq gaps)
 * and the zero-trigger triage classes that need action. Each says why it
 * matters in words and names the README section that explains it.
 */
import type { Analysis } from '../analysis/report-model.js';
import { findSection } from '../analysis/report-model.js';
import { plural } from './plural.js';
import { importReconciliation, importTotals } from './imports.js';
import type { Finding } from './finding.js';
import { README_REFS, readmeText } from './readme-refs.js';
import { triageEvidence, triageLevel } from './triage.js';
import { inputFindings } from './input-findings.js';
import { taskFailureText, taskSessionsText } from '../analysis/task-diff.js';
import { ShippedDefense } from '../events/labels.js';

// The shape lives in finding.ts so the finders (input-findings.ts) need not import this file back.
export type { Finding } from './finding.js';

/** The finding as one line of text: `text (README › Section)`. */
export function findingText(f: Finding): string {
  return f.see ? `${f.text} (${readmeText(f.see)})` : f.text;
}

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** The failing tasks first (what a reader of a suite's result looks for), then errors before warnings, each kind in the order found. */
export function findings(analysis: Analysis): Finding[] {
  const all = collect(analysis);
  return [...taskFindings(analysis), ...all.filter((f) => f.level === 'error'), ...all.filter((f) => f.level === 'warning')];
}

/** Failing tasks named in the findings; the rest are counted, and all are in --json (section task_outcomes). */
const FAILING_TASKS_NAMED = 10;

/** One finding per failing task (a session failed, errored or was aborted): its sessions and why. */
function taskFindings(analysis: Analysis): Finding[] {
  const failing = (findSection(analysis, 'task_outcomes')?.rows ?? []).filter((r) => n(r.not_passed) > 0);
  const out: Finding[] = failing.slice(0, FAILING_TASKS_NAMED).map((r) => {
    const why = taskFailureText(r);
    return { level: 'error', text: `task ${String(r.task_id)} failed: ${taskSessionsText(r)}${why ? ` — ${why}` : ''}` };
  });
  if (failing.length > FAILING_TASKS_NAMED) out.push({ level: 'error', text: `… and ${plural(failing.length - FAILING_TASKS_NAMED, 'more failing task')} (all in --json, section task_outcomes)` });
  return out;
}

const SHIPPED = new Set<string>(ShippedDefense.options);

/**
 * A shipped defense no task of the run got to or made fire: armed by default,
 * but nothing in this suite targets it (a user's suite rarely does). Said
 * once for all of them; a defense whose code was passed by (wiring broken) or
 * that is the user's own keeps its own finding.
 */
/** A shipped defense that never fired nor was judged although its sessions passed its evaluation point. */
function shippedPassedBy(row: Record<string, unknown>): boolean {
  return SHIPPED.has(String(row.defense)) && n(row.triggers) === 0 && row.triage === 'unwired' && typeof row.evidence === 'string' && row.evidence.startsWith('wiring broken:');
}

export function untargeted(row: Record<string, unknown>): boolean {
  if (!SHIPPED.has(String(row.defense)) || n(row.triggers) > 0) return false;
  if (row.triage === 'unreached') return true;
  return row.triage === 'unwired' && typeof row.evidence === 'string' && row.evidence.startsWith('not reached:');
}

function defenseFindings(analysis: Analysis): Finding[] {
  const out: Finding[] = [];
  const see = README_REFS.defenseTriage;
  const quiet: string[] = [];
  const passedBy: string[] = [];
  for (const row of findSection(analysis, 'defenses')?.rows ?? []) {
    const level = triageLevel(row.triage, row);
    if (level !== null && untargeted(row)) {
      quiet.push(String(row.defense));
      continue;
    }
    if (level !== null && shippedPassedBy(row)) {
      passedBy.push(String(row.defense));
      continue;
    }
    // the analysis says why in its evidence; without one, the generic reason
    const evidence = triageEvidence(row);
    if (level !== null) {
      const armed = plural(n(row.sessions_armed), 'session');
      const why =
        evidence ??
        (row.triage === 'unwired'
          ? `armed in ${armed} but never evaluated, so it protects nothing: either no session reached the code it guards (check that the events it guards, e.g. calls of its tools, exist) or its wiring is broken`
          : row.triage === 'unreached'
            ? `evaluated ${plural(n(row.evaluations), 'time')}, never triggered; nothing shows it works: add a scenario that must trigger it`
            : row.triage === 'unknown'
              ? `armed in ${armed}, but the harness that wrote them does not implement it (a name in the configuration with no code behind it)`
              : `armed in ${armed}`);
      out.push({ level, see, text: `defense ${row.defense}: ${String(row.triage)} — ${why}` });
    }
    if (row.triggers_match_stats === false) out.push({ level: 'error', see, text: `defense ${row.defense}: ${plural(n(row.triggers), 'trigger event')} but defense_stats counts a different number: one path counts what it judged as triggered, or drops triggers` });
  }
  if (passedBy.length > 0) {
    out.push({
      level: 'error',
      see,
      text: `${plural(passedBy.length, 'shipped defense')} armed and never evaluated though ${passedBy.length === 1 ? 'its' : 'their'} sessions had events of ${passedBy.length === 1 ? 'its' : 'their'} evaluation point (counting only the events each one judges, e.g. bash commands: its wiring is broken; see Defenses for the evidence): ${passedBy.join(', ')}`,
    });
  }
  if (quiet.length > 0) {
    out.push({
      level: 'warning',
      see,
      text: `${plural(quiet.length, 'shipped defense')} this run never reached or triggered (no task here targets ${quiet.length === 1 ? 'it' : 'them'}, so nothing shows ${quiet.length === 1 ? 'it works' : 'they work'}; \`faultline verify-defense --all\` runs their fault scenarios): ${quiet.join(', ')}`,
    });
  }
  return out;
}

function collect(analysis: Analysis): Finding[] {
  const out: Finding[] = inputFindings(analysis);
  for (const row of findSection(analysis, 'tool_funnel')?.rows ?? []) {
    if (row.tool !== '(all tools)' && typeof row.lost === 'number' && row.lost !== 0) {
      out.push({ level: 'error', see: README_REFS.lostCalls, text: `tool ${row.tool}: lost = ${row.lost} — calls - successes - failures - cut_short must be 0: a call vanished in execution (the model got no result either) or a result had no call` });
    }
    if (row.tool === '(all tools)' && n(row.cut_short) > 0) {
      out.push({ level: 'warning', see: README_REFS.cutShort, text: `${plural(n(row.cut_short), 'tool call')} cut short: in flight when the run was killed (a session without session_end), so no result was written; not lost, and left out of lost` });
    }
  }
  out.push(...defenseFindings(analysis));
  out.push(...integrityFindings(analysis));
  const summary = findSection(analysis, 'session_summary')?.rows[0];
  if (summary && typeof summary.sessions_without_end === 'number' && summary.sessions_without_end > 0) {
    out.push({
      level: 'warning',
      see: README_REFS.cutShort,
      text: `${plural(summary.sessions_without_end, 'session')} cut short (session_start without session_end: the run was killed or lost events); counted neither passed nor failed, pass rates are over the ${plural(n(summary.sessions_ended), 'ended session')}`,
    });
  }
  out.push(...runFindings(analysis));
  const checks = findSection(analysis, 'expectation_summary')?.rows[0];
  if (checks && typeof checks.failed === 'number' && checks.failed > 0) {
    out.push({ level: 'error', text: `${plural(checks.failed, 'expectation')} failed in ${plural(n(checks.sessions_with_failed_check), 'session')} (see Failed expectations)` });
  }
  if (analysis.load.quarantined.length > 0) {
    out.push({ level: 'warning', text: `${plural(analysis.load.quarantined.length, 'line')} quarantined: left out of every figure (see Quarantine)` });
  }
  for (const t of importTotals(analysis.load.imports ?? [])) {
    for (const [text, count] of t.warnings) out.push({ level: 'warning', see: README_REFS.imports, text: `imported ${t.format} traces: ${plural(count, t.unit)}: ${text}` });
    out.push({ level: 'warning', see: README_REFS.imports, text: `imported ${t.format} traces: not available in source: ${t.notes.join('; ')}` });
  }
  return out;
}

/** Runs killed before run_end, lost lines (seq gaps per writer), and logical runs missing shards. */
function runFindings(analysis: Analysis): Finding[] {
  const out: Finding[] = [];
  const runs = findSection(analysis, 'run_summary')?.rows[0];
  if (runs && n(runs.runs_without_run_end) > 0) out.push({ level: 'warning', see: README_REFS.cutShort, text: `${plural(n(runs.runs_without_run_end), 'run')} without run_end (killed or still running; see Runs)` });
  if (runs && n(runs.seq_gaps) > 0) out.push({ level: 'error', see: README_REFS.cutShort, text: `${plural(n(runs.seq_gaps), 'event')} lost: seq gaps in ${plural(n(runs.writers_with_seq_gaps), 'writer')} (see Runs)` });
  if (runs && n(runs.seq_duplicates) > 0) out.push({ level: 'warning', see: README_REFS.cutShort, text: `${plural(n(runs.seq_duplicates), 'event')} with a seq seen twice in one run (the same trace read twice?)` });
  for (const row of findSection(analysis, 'logical_runs')?.rows ?? []) {
    if (row.missing_shards) out.push({ level: 'warning', text: `logical run ${row.logical_run_id}: shard ${row.missing_shards} of ${row.shards_expected} missing; the merged figures cover ${n(row.shards_seen)} of ${n(row.shards_expected)} shards` });
    if (n(row.duplicate_shards) > 0) out.push({ level: 'warning', text: `logical run ${row.logical_run_id}: ${plural(n(row.duplicate_shards), 'shard')} read twice (two traces of the same shard)` });
    if (row.mixed_shard_counts === true) out.push({ level: 'warning', text: `logical run ${row.logical_run_id}: its runs disagree on the shard count (--shard i/n with different n)` });
  }
  return out;
}

/**
 * The reconciliation every report prints: nothing is silently lost. Imported
 * inputs reconcile in their own unit (lines, spans, results) and name the
 * events they became; native traces keep `lines read = events used + lines
 * quarantined`.
 */
export function reconciliation(analysis: Pick<Analysis, 'load'>): string {
  const { linesRead, eventsUsed, quarantined, imports = [] } = analysis.load;
  if (imports.length === 0) return `lines read = events used + lines quarantined: ${linesRead} = ${eventsUsed} + ${quarantined.length}`;
  const totals = importTotals(imports);
  const sum = (pick: (t: (typeof totals)[number]) => number) => totals.reduce((n, t) => n + pick(t), 0);
  const nativeLines = linesRead - sum((t) => t.records);
  const nativeEvents = eventsUsed - sum((t) => t.events);
  const nativeBad = quarantined.filter((q) => q.kind !== 'import').length;
  const parts = totals.map((t) => `imported ${importReconciliation(t)}`);
  if (analysis.load.files.length > imports.length) parts.unshift(`lines read = events used + lines quarantined: ${nativeLines} = ${nativeEvents} + ${nativeBad}`);
  return parts.join('; ');
}

/** The green-but-broken checks (integrity.sql): each count is 0 in a healthy trace. */
function integrityFindings(analysis: Analysis): Finding[] {
  const row = findSection(analysis, 'integrity')?.rows[0];
  if (!row) return [];
  const out: Finding[] = [];
  const batches = n(row.batches_with_identical_durations);
  if (batches > 0) out.push({ level: 'error', text: `${plural(batches, 'parallel batch', 'parallel batches')} where 3 or more calls report the very same duration: per-call times look averaged, which hides the slow call (p95 per tool is not to be trusted)` });
  const prefixes = n(row.sessions_with_prefix_changes);
  if (prefixes > 0) out.push({ level: 'warning', text: `${plural(prefixes, 'session')} whose request prefix (tools + system prompt) changed between turns with the same tools: something dynamic in a description or the system prompt defeats the prompt cache` });
  const sets = n(row.tool_sets_with_differing_definitions);
  if (sets > 0) out.push({ level: 'error', text: `${plural(sets, 'tool set')} sent with different tools-payload sizes for the same tools and provider: a second code path builds the definitions and loses text` });
  const collisions = n(row.sessions_with_prefix_collisions);
  if (collisions > 0) out.push({ level: 'warning', text: `${plural(collisions, 'session')} where a resident and a deferred tool share a 4+ character prefix: a call of the unloaded tool can silently become a call of the resident one (faultline lint-tools names the pairs)` });
  return out;
}
