/**
 * The report registry: one .sql file per report under ./sql, each holding one
 * or more `-- section: id | title [| chart]` statements. SQL is loaded
 * relative to this module so it works from src (tsx, vitest) and dist.
 */
import { readFileSync } from 'node:fs';
import type { Duck } from './duck.js';
import type { ReportResult, Section } from './report-model.js';

export const REPORTS = [
  { id: 'tool_funnel', title: 'Tool funnel' },
  { id: 'failure_kinds', title: 'Failure kinds' },
  { id: 'tool_latency', title: 'Tool latency' },
  { id: 'permission_funnel', title: 'Permissions' },
  { id: 'defense_report', title: 'Defenses' },
  { id: 'sessions', title: 'Sessions' },
  { id: 'model_calls', title: 'Model calls' },
] as const;

export type ReportId = (typeof REPORTS)[number]['id'];

export function reportSql(id: ReportId): string {
  return readFileSync(new URL(`./sql/${id}.sql`, import.meta.url), 'utf8');
}

export function allReportSql(): string[] {
  return REPORTS.map((r) => reportSql(r.id));
}

interface SectionSql {
  id: string;
  title: string;
  chartOnly: boolean;
  sql: string;
}

/** Splits a report file at its `-- section:` markers. */
export function parseSections(text: string): SectionSql[] {
  const out: SectionSql[] = [];
  const parts = text.split(/^-- section:/m).slice(1);
  for (const part of parts) {
    const newline = part.indexOf('\n');
    const [id = '', title = '', flag = ''] = part.slice(0, newline).split('|').map((s) => s.trim());
    const sql = part.slice(newline + 1).trim().replace(/;\s*$/, '');
    out.push({ id, title, chartOnly: flag === 'chart', sql });
  }
  return out;
}

export async function runReport(duck: Duck, id: ReportId, title: string): Promise<ReportResult> {
  const sections: Section[] = [];
  for (const s of parseSections(reportSql(id))) {
    const { columns, rows } = await duck.query(s.sql);
    sections.push({ id: s.id, title: s.title, chartOnly: s.chartOnly, columns, rows });
  }
  return { id, title, sections };
}

export async function runAllReports(duck: Duck): Promise<ReportResult[]> {
  const out: ReportResult[] = [];
  for (const r of REPORTS) out.push(await runReport(duck, r.id, r.title));
  return out;
}
