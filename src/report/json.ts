/** Machine-readable output: every section (a capped one, e.g. failed expectations, with its total_rows) and every quarantined line. */
import type { Row } from '../analysis/duck.js';
import type { Analysis, Section } from '../analysis/report-model.js';
import { findings, reconciliation } from './findings.js';
import { importSummaryJson, REPORT_JSON_FORMAT_VERSION } from './json-format.js';

function sectionJson(s: Section): { title: string; total_rows?: number; rows: Row[] } {
  return s.totalRows === undefined ? { title: s.title, rows: s.rows } : { title: s.title, total_rows: s.totalRows, rows: s.rows };
}

export function toJsonReport(analysis: Analysis): unknown {
  const { load } = analysis;
  return {
    format_version: REPORT_JSON_FORMAT_VERSION,
    reconciliation: { lines_read: load.linesRead, events_used: load.eventsUsed, lines_quarantined: load.quarantined.length, text: reconciliation(analysis) },
    files: load.files,
    inputs: analysis.inputs,
    copied_runs: load.copiedRuns,
    imports: (load.imports ?? []).map(importSummaryJson),
    findings: findings(analysis),
    reports: Object.fromEntries(analysis.reports.map((r) => [r.id, Object.fromEntries(r.sections.map((s) => [s.id, sectionJson(s)]))])),
    quarantine: load.quarantined,
  };
}

export function renderJson(analysis: Analysis): string {
  return JSON.stringify(toJsonReport(analysis), null, 2) + '\n';
}
