/**
 * One self-contained index.html: inline CSS, tables, and charts as inline SVG
 * rendered at build time. No scripts, no external resources; it opens
 * offline. Every string from a trace is escaped: trace files are untrusted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis, Section } from '../analysis/report-model.js';
import { renderCharts } from './charts.js';
import { formatCell } from './format.js';
import { findings, reconciliation } from './findings.js';
import { QUARANTINE_SHOWN } from './terminal.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.bad{color:#b00;font-weight:bold}.warn{color:#a60}
.chart{margin:1em 0 2em}code{background:#f6f6f6}`;

function sectionHtml(section: Section): string {
  if (section.rows.length === 0) return `<p><em>no events</em></p>`;
  const head = section.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = section.rows
    .map((row) => {
      const cells = section.columns.map((c) => {
        const v = row[c] ?? null;
        const flag = (c === 'lost' && v !== 0) || (c === 'triage' && v === 'unwired') || (c === 'triggers_match_stats' && v === false);
        return `<td${flag ? ' class="bad"' : ''}>${escapeHtml(formatCell(c, v))}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export async function renderHtml(analysis: Analysis): Promise<string> {
  const parts: string[] = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    // No scripts at all, even if an escape were ever missed.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>faultline report</title><style>${CSS}</style></head><body>`,
    `<h1>faultline report</h1>`,
    `<p><code>${escapeHtml(reconciliation(analysis))}</code></p>`,
  ];
  const found = findings(analysis);
  if (found.length > 0) {
    parts.push(`<h2>Findings</h2><ul>`);
    for (const f of found) parts.push(`<li class="${f.level === 'error' ? 'bad' : 'warn'}">${escapeHtml(f.text)}</li>`);
    parts.push(`</ul>`);
  }
  for (const chart of await renderCharts(analysis)) {
    parts.push(`<div class="chart"><h3>${escapeHtml(chart.title)}</h3>${chart.svg}</div>`);
  }
  for (const report of analysis.reports) {
    parts.push(`<h2>${escapeHtml(report.title)}</h2>`);
    for (const section of report.sections) {
      if (section.chartOnly) continue;
      parts.push(`<h3>${escapeHtml(section.title)}</h3>`, sectionHtml(section));
    }
  }
  const q = analysis.load.quarantined;
  if (q.length > 0) {
    parts.push(`<h2>Quarantine (${q.length} lines, first ${QUARANTINE_SHOWN} shown)</h2><ul>`);
    for (const l of q.slice(0, QUARANTINE_SHOWN)) parts.push(`<li><code>${escapeHtml(`${l.file}:${l.line}`)}</code>: ${escapeHtml(l.reason)}</li>`);
    if (q.length > QUARANTINE_SHOWN) parts.push(`<li>… and ${q.length - QUARANTINE_SHOWN} more (all of them in --json)</li>`);
    parts.push(`</ul>`);
  }
  parts.push(`<h2>Files</h2><ul>${analysis.load.files.map((f) => `<li><code>${escapeHtml(f)}</code></li>`).join('')}</ul>`);
  parts.push(`</body></html>\n`);
  return parts.join('\n');
}

/** Writes `<dir>/index.html`; returns its path. */
export async function writeHtmlReport(analysis: Analysis, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'index.html');
  writeFileSync(path, await renderHtml(analysis));
  return path;
}
