/**
 * The report registry: one .sql file per report under ./sql, each holding one
 * or more `-- section: id | title [| flag]` statements, and optionally
 * `-- table: name` statements before them: working tables of that report,
 * computed once before its sections and dropped after. A table's row count is
 * exact when a section is planned, so a join builds on the small side (an
 * empty table costs nothing to join; a CTE of unknown size can cost a full
 * hash build of the other side). Flags: `chart` (drawn
 * only, too long for a table), `summary` (one row of totals, shown as
 * metric/value pairs), `first N` (only the first N rows are kept, with the
 * total count), `header` (who ran what and when: shown in the report's
 * header, not as a table), `data` (rows other views read, e.g. the diff's
per-task comparison and the verdict's failing tasks: kept in JSON, never a
table of their own). SQL is loaded relative to this module so it works from src
 * (tsx, vitest) and dist.
 */
import { readFileSync } from 'node:fs';
import type { Duck } from './duck.js';
import type { ReportResult, Section } from './report-model.js';
import { parseFlag, type SectionFlag } from './section-flags.js';

export const REPORTS = [
  { id: 'tool_funnel', title: 'Tool funnel' },
  { id: 'failure_kinds', title: 'Failure kinds' },
  { id: 'tool_latency', title: 'Tool latency' },
  { id: 'tool_usage', title: 'Tool usage' },
  { id: 'permission_funnel', title: 'Permissions' },
  { id: 'defense_report', title: 'Defenses' },
  { id: 'integrity', title: 'Green-but-broken checks' },
  { id: 'sessions', title: 'Sessions' },
  { id: 'runs', title: 'Runs' },
  { id: 'model_calls', title: 'Model calls' },
  { id: 'mcp_servers', title: 'MCP servers' },
  { id: 'expectations', title: 'Expectations' },
  { id: 'not_available', title: 'Not available in source' },
  { id: 'conformance', title: 'Conformance' },
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
  summary: boolean;
  header: boolean;
  /** `first N`: keep the first N rows (the statement must end in ORDER BY and have no LIMIT). */
  limit: number | null;
  /** `-- flag:` lines under the marker: which cells this section highlights (section-flags.ts). */
  flags: SectionFlag[];
  /** `-- budget: N` under the marker: the most terminal lines the section may take; null: DEFAULT_SECTION_BUDGET. */
  budget: number | null;
  sql: string;
}

/**
 * Terminal lines a section may take when its file does not say (`-- budget: N`):
 * a title, a table of a cut section (failing rows first, then a head) and its
 * notes. Checked per section on the demo report (tests/analysis/section-budgets.test.ts),
 * so a new section brings its own budget instead of eating into a total.
 */
export const DEFAULT_SECTION_BUDGET = 24;

/** The `-- flag:` and `-- budget:` lines right under a marker, and the statement after them. */
function sectionOptions(id: string, body: string): { flags: SectionFlag[]; budget: number | null; rest: string } {
  const flags: SectionFlag[] = [];
  let budget: number | null = null;
  let rest = body;
  for (;;) {
    const m = /^[ \t]*-- (flag|budget):([^\n]*)\n/.exec(rest);
    if (!m) break;
    if (m[1] === 'flag') flags.push(parseFlag(m[2]!, id));
    else {
      const n = Number(m[2]!.trim());
      if (!Number.isInteger(n) || n < 1) throw new Error(`section ${id}: budget "${m[2]!.trim()}" is not a whole number of lines`);
      budget = n;
    }
    rest = rest.slice(m[0].length);
  }
  return { flags, budget, rest };
}

/** A marker's statement: its text up to the next marker, less the comments that introduce the next one and the final `;`. */
function statementOf(body: string): string {
  return body.replace(/(?:\n[ \t]*(?:--[^\n]*)?)*$/, '').trim().replace(/;$/, '');
}

interface TableSql {
  name: string;
  sql: string;
}

/** The `-- table:` statements of a report file, in order. */
export function parseTables(text: string): TableSql[] {
  const out: TableSql[] = [];
  for (const part of text.split(/^-- (?=table:|section:)/m).filter((p) => p.startsWith('table:'))) {
    const newline = part.indexOf('\n');
    const name = part.slice('table:'.length, newline).trim();
    if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`table "${name}": a table name is lower_snake_case`);
    out.push({ name, sql: statementOf(part.slice(newline + 1)) });
  }
  return out;
}

/** Splits a report file at its `-- section:` markers. */
export function parseSections(text: string): SectionSql[] {
  const out: SectionSql[] = [];
  const parts = text.split(/^-- (?=table:|section:)/m).filter((p) => p.startsWith('section:')).map((p) => p.slice('section:'.length));
  for (const part of parts) {
    const newline = part.indexOf('\n');
    const [id = '', title = '', flag = ''] = part.slice(0, newline).split('|').map((s) => s.trim());
    const options = sectionOptions(id, part.slice(newline + 1));
    const sql = statementOf(options.rest);
    const first = /^first (\d+)$/.exec(flag);
    if (flag !== '' && flag !== 'chart' && flag !== 'data' && flag !== 'summary' && flag !== 'header' && !first) throw new Error(`section ${id}: unknown flag "${flag}"`);
    // a data section is left out of tables exactly as a chart's rows are
    out.push({ id, title, chartOnly: flag === 'chart' || flag === 'data', summary: flag === 'summary', header: flag === 'header', limit: first ? Number(first[1]) : null, flags: options.flags, budget: options.budget, sql });
  }
  return out;
}

export async function runReport(duck: Duck, id: ReportId, title: string): Promise<ReportResult> {
  const text = reportSql(id);
  const tables = parseTables(text);
  try {
    for (const t of tables) await duck.exec(`CREATE OR REPLACE TEMP TABLE "${t.name}" AS ${t.sql}`);
    return { id, title, sections: await runSections(duck, text) };
  } finally {
    for (const t of tables) await duck.exec(`DROP TABLE IF EXISTS "${t.name}"`);
  }
}

async function runSections(duck: Duck, text: string): Promise<Section[]> {
  const sections: Section[] = [];
  for (const s of parseSections(text)) {
    const section: Section = { id: s.id, title: s.title, chartOnly: s.chartOnly, columns: [], rows: [] };
    if (s.summary) section.summary = true;
    if (s.header) section.header = true;
    if (s.flags.length > 0) section.flags = s.flags;
    if (s.budget !== null) section.budget = s.budget;
    if (s.limit === null) Object.assign(section, await duck.query(s.sql));
    else {
      Object.assign(section, await duck.query(`${s.sql}\nLIMIT ${s.limit}`));
      const [count] = await duck.rows(`SELECT count(*) AS n FROM (${s.sql}\n)`);
      section.totalRows = Number(count?.n ?? 0);
    }
    sections.push(section);
  }
  return sections;
}

export async function runAllReports(duck: Duck): Promise<ReportResult[]> {
  const out: ReportResult[] = [];
  for (const r of REPORTS) out.push(await runReport(duck, r.id, r.title));
  return out;
}
