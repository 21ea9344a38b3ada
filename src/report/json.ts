/** Machine-readable output: every section and every quarantined line (no cut-off). */
import type { Analysis } from '../analysis/report-model.js';
import { findings, reconciliation } from './findings.js';

export function toJsonReport(analysis: Analysis): unknown {
  const { load } = analysis;
  return {
    reconciliation: { lines_read: load.linesRead, events_used: load.eventsUsed, lines_quarantined: load.quarantined.length, text: reconciliation(analysis) },
    files: load.files,
    findings: findings(analysis),
    reports: Object.fromEntries(analysis.reports.map((r) => [r.id, Object.fromEntries(r.sections.map((s) => [s.id, { title: s.title, rows: s.rows }]))])),
    quarantine: load.quarantined,
  };
}

export function renderJson(analysis: Analysis): string {
  return JSON.stringify(toJsonReport(analysis), null, 2) + '\n';
}
