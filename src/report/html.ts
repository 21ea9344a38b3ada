/**
 * One self-contained index.html: inline CSS, tables, and charts as inline SVG
 * rendered at build time. No scripts, no external resources; it opens
 * offline. Every string from a trace is escaped: trace files are untrusted.
 *
 * Layout: the header (runs, inputs), the verdict, a table of contents, then
 * each report with its charts above its tables, quarantine last.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis } from '../analysis/report-model.js';
import { CHART_PACKAGES, renderCharts, type Chart } from './charts.js';
import { sectionTitle } from './format.js';
import { anchor, escapeHtml, failingCount, headerHtml, sectionHtml, shortTitle, tocHtml, verdictHtml, type TocEntry } from './html-parts.js';
import { CSS } from './html-style.js';
import { SESSION_CSS, sessionHtml, sessionLinks } from './session-html.js';
import { sessionSvg } from './session-svg.js';
import { QUARANTINE_SHOWN, quarantineByFile, quarantineRest, quarantineTitle } from './quarantine.js';

export { escapeHtml } from './html-parts.js';

/** Which report each chart belongs with. */
const CHART_REPORT: Record<string, string> = {
  latency: 'tool_latency',
  latency_per_tool: 'tool_latency',
  funnel: 'tool_funnel',
  failure_kinds: 'failure_kinds',
  defenses: 'defense_report',
};

/** Quarantined lines grouped by file: the file once, then `line N: reason`. */
function quarantineHtml(analysis: Analysis): string[] {
  const q = analysis.load.quarantined;
  if (q.length === 0) return [];
  const parts = [`<h2 id="quarantine">${escapeHtml(quarantineTitle(q))}</h2><ul class="quarantine">`];
  for (const group of quarantineByFile(q, QUARANTINE_SHOWN)) {
    const lines = group.lines.map((l) => `<li>line ${l.line}: ${escapeHtml(l.reason)}</li>`).join('');
    parts.push(`<li><code>${escapeHtml(group.file)}</code><ul>${lines}</ul></li>`);
  }
  const rest = quarantineRest(q, QUARANTINE_SHOWN);
  if (rest !== null) parts.push(`<li>${escapeHtml(rest)}</li>`);
  parts.push(`</ul>`);
  return parts;
}

/** Where the charts would be, when vega and vega-lite are not installed: what to install. */
function chartsMissingHtml(): string {
  return `<p class="note" id="charts-missing">Charts are left out: they need the optional packages ${CHART_PACKAGES.map((p) => `<code>${p}</code>`).join(' and ')} (<code>npm install --save-dev ${CHART_PACKAGES.join(' ')}</code>). Every figure is in the tables below.</p>`;
}

function chartHtml(chart: Chart): string {
  return `<div class="chart" id="${anchor('chart', chart.id)}"><h3>${escapeHtml(chart.title)}</h3>${chart.svg}</div>`;
}

export async function renderHtml(analysis: Analysis): Promise<string> {
  const rendered = await renderCharts(analysis);
  const charts = rendered ?? [];
  const toc: TocEntry[] = [{ id: 'verdict', text: 'Verdict' }, { id: 'inputs', text: 'Runs and inputs' }];
  const body: string[] = [];
  const sessions = analysis.sessions ?? [];
  const links = sessionLinks(sessions);
  // A row that names a session (or only its task) links to the session's view below.
  const link = (column: string, row: Record<string, unknown>): string | null =>
    column === 'session_id' && typeof row.session_id === 'string'
      ? (links.session.get(row.session_id) ?? null)
      : column === 'task_id' && typeof row.task_id === 'string'
        ? (typeof row.session_id === 'string' ? links.session.get(row.session_id) : undefined) ?? links.task.get(row.task_id) ?? null
        : null;
  for (const report of analysis.reports) {
    const sections = report.sections.filter((s) => !s.chartOnly && !s.header);
    const own = charts.filter((c) => CHART_REPORT[c.id] === report.id);
    if (sections.length === 0 && own.length === 0) continue;
    const entry: TocEntry = { id: anchor('report', report.id), text: report.title, children: [] };
    body.push(`<h2 id="${entry.id}">${escapeHtml(report.title)}</h2>`);
    for (const chart of own) {
      entry.children?.push({ id: anchor('chart', chart.id), text: `Chart: ${shortTitle(chart.title.replace(/:.*$/, ''))}` });
      body.push(chartHtml(chart));
    }
    for (const section of sections) {
      const id = anchor('section', section.id);
      const failing = failingCount(section);
      const text = shortTitle(section.title) + (failing.count > 0 ? ` (${failing.count} failing)` : section.rows.length === 0 ? ' (empty)' : '');
      entry.children?.push({ id, text, flag: failing.flag });
      body.push(`<h3 id="${id}">${escapeHtml(sectionTitle(section))}</h3>`, sectionHtml(section, link));
    }
    entry.flag = entry.children?.some((c) => c.flag === 'bad') ? 'bad' : entry.children?.some((c) => c.flag === 'warn') ? 'warn' : null;
    toc.push(entry);
  }
  if (sessions.length > 0) {
    toc.push({ id: 'sessions', text: `Sessions named above (${sessions.length})` });
    body.push(`<h2 id="sessions">Sessions named above</h2>`, ...sessions.map((s) => sessionHtml(s, sessionSvg(s))));
  }
  if (analysis.load.quarantined.length > 0) toc.push({ id: 'quarantine', text: quarantineTitle(analysis.load.quarantined), flag: 'warn' });
  const parts: string[] = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    // No scripts at all, even if an escape were ever missed.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>faultline report</title><style>${CSS}${sessions.length > 0 ? SESSION_CSS : ''}</style></head><body>`,
    headerHtml(analysis),
    verdictHtml(analysis),
    tocHtml(toc),
    ...(rendered === null ? [chartsMissingHtml()] : []),
    ...body,
    ...quarantineHtml(analysis),
    `</body></html>\n`,
  ];
  return parts.join('\n');
}

/** Writes `<dir>/index.html`; returns its path. */
export async function writeHtmlReport(analysis: Analysis, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'index.html');
  writeFileSync(path, await renderHtml(analysis));
  return path;
}
