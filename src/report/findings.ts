/**
 * Findings a reader must not miss, derived from the report rows: numbers
 * that are 0 by construction when nothing is broken (seed §14.1) and the
 * zero-trigger triage classes that need action (§14.4).
 */
import type { Analysis } from '../analysis/report-model.js';
import { findSection } from '../analysis/report-model.js';
import { plural } from './format.js';
import { importReconciliation, importTotals } from './imports.js';

export interface Finding {
  level: 'error' | 'warning';
  text: string;
}

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

export function findings(analysis: Analysis): Finding[] {
  const out: Finding[] = [];
  for (const row of findSection(analysis, 'tool_funnel')?.rows ?? []) {
    if (row.tool !== '(all tools)' && typeof row.lost === 'number' && row.lost !== 0) {
      out.push({ level: 'error', text: `tool ${row.tool}: lost = ${row.lost} (calls - successes - failures must be 0; a call vanished in execution or a result had no call)` });
    }
  }
  for (const row of findSection(analysis, 'defenses')?.rows ?? []) {
    if (row.triage === 'unwired') out.push({ level: 'error', text: `defense ${row.defense}: unwired — armed in ${plural(n(row.sessions_armed), 'session')} but never evaluated: either no session reached the code it guards (check that neighbouring events, e.g. calls of the tools it guards, exist) or its wiring is broken (seed §14.4)` });
    if (row.triage === 'unreached') out.push({ level: 'warning', text: `defense ${row.defense}: unreached — evaluated ${plural(n(row.evaluations), 'time')}, never triggered; add a scenario that must trigger it` });
    if (row.triggers_match_stats === false) out.push({ level: 'error', text: `defense ${row.defense}: ${plural(n(row.triggers), 'trigger event')} but defense_stats counts a different number (judged vs triggered?)` });
  }
  const summary = findSection(analysis, 'session_summary')?.rows[0];
  if (summary && typeof summary.sessions_without_end === 'number' && summary.sessions_without_end > 0) {
    out.push({ level: 'warning', text: `${plural(summary.sessions_without_end, 'session')} started but never ended (crash or lost events)` });
  }
  const checks = findSection(analysis, 'expectation_summary')?.rows[0];
  if (checks && typeof checks.failed === 'number' && checks.failed > 0) {
    out.push({ level: 'error', text: `${plural(checks.failed, 'expectation')} failed in ${plural(n(checks.sessions_with_failed_check), 'session')} (see Failed expectations)` });
  }
  if (analysis.load.quarantined.length > 0) {
    out.push({ level: 'warning', text: `${plural(analysis.load.quarantined.length, 'line')} quarantined (see Quarantine)` });
  }
  for (const t of importTotals(analysis.load.imports ?? [])) {
    out.push({ level: 'warning', text: `imported ${t.format} traces: not available in source: ${t.notes.join('; ')}` });
  }
  return out;
}

/**
 * The reconciliation every report prints: nothing is silently lost. Imported
 * inputs reconcile in their own unit (lines, spans, results) and name the
 * events they became; native traces keep `lines read = events used + lines
 * quarantined`.
 */
export function reconciliation(analysis: Analysis): string {
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
