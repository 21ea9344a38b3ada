/**
 * One self-contained index.html: inline CSS, tables, and charts as inline SVG
 * rendered at build time. No scripts, no external resources; it opens
 * offline. Every string from a trace is escaped: trace files are untrusted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis, Section } from '../analysis/report-model.js';
import { renderCharts } from './charts.js';
import { emptyText, sectionTitle, tableView, type ViewCell } from './format.js';
import { findings, reconciliation } from './findings.js';
import { QUARANTINE_SHOWN, quarantineByFile, quarantineRest, quarantineTitle } from './quarantine.js';
import { INPUTS_SHOWN, inputSummary, inputsRest, inputsTitle } from './input-header.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Column names longer than this may wrap after their underscores; shorter ones stay whole. */
const WRAP_HEAD_OVER = 14;

/** A column name; a long one wraps after its underscores (escapeHtml never writes `_`, so the tags land only there). */
function headHtml(name: string): string {
  const text = escapeHtml(name);
  return name.length > WRAP_HEAD_OVER ? text.replaceAll('_', '_<wbr>') : text;
}

// Each table scrolls sideways in its own box, so the page itself never does.
const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;padding:0 2em;color:#222;max-width:1200px}
.table{overflow-x:auto;margin:.5em 0 1.5em;max-width:100%}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3;vertical-align:bottom}td{overflow-wrap:break-word}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bad{color:#b00;font-weight:bold}.warn{color:#a60}
.chart{margin:1em 0 2em;overflow-x:auto}code{background:#f6f6f6}li{overflow-wrap:anywhere}
ul.quarantine li li{list-style:none}`;

function cellHtml(cell: ViewCell, tag: 'td' | 'th', text: string): string {
  const classes = [cell.align === 'right' ? 'num' : '', cell.flag ?? ''].filter((c) => c !== '');
  return `<${tag}${classes.length > 0 ? ` class="${classes.join(' ')}"` : ''}>${text}</${tag}>`;
}

function sectionHtml(section: Section): string {
  if (section.rows.length === 0) return `<p><em>${emptyText(section)}</em></p>`;
  const view = tableView(section);
  const head = view.head.map((h, i) => cellHtml({ text: h, align: view.headAlign[i] ?? 'left', flag: null }, 'th', headHtml(h))).join('');
  const body = view.rows.map((row) => `<tr>${row.map((cell) => cellHtml(cell, 'td', escapeHtml(cell.text))).join('')}</tr>`).join('\n');
  return `<div class="table"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** Quarantined lines grouped by file: the file once, then `line N: reason`. */
function quarantineHtml(analysis: Analysis): string[] {
  const q = analysis.load.quarantined;
  if (q.length === 0) return [];
  const parts = [`<h2>${escapeHtml(quarantineTitle(q))}</h2><ul class="quarantine">`];
  for (const group of quarantineByFile(q, QUARANTINE_SHOWN)) {
    const lines = group.lines.map((l) => `<li>line ${l.line}: ${escapeHtml(l.reason)}</li>`).join('');
    parts.push(`<li><code>${escapeHtml(group.file)}</code><ul>${lines}</ul></li>`);
  }
  const rest = quarantineRest(q, QUARANTINE_SHOWN);
  if (rest !== null) parts.push(`<li>${escapeHtml(rest)}</li>`);
  parts.push(`</ul>`);
  return parts;
}

export async function renderHtml(analysis: Analysis): Promise<string> {
  const parts: string[] = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    // No scripts at all, even if an escape were ever missed.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>faultline report</title><style>${CSS}</style></head><body>`,
    `<h1>faultline report</h1>`,
    `<p>${escapeHtml(inputsTitle(analysis.inputs))}:</p><ul class="inputs">`,
    ...analysis.inputs.slice(0, INPUTS_SHOWN).map((i) => `<li><code>${escapeHtml(i.path)}</code>: ${escapeHtml(inputSummary(i))}</li>`),
    ...[inputsRest(analysis.inputs)].filter((r) => r !== null).map((r) => `<li>${escapeHtml(r)}</li>`),
    `</ul>`,
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
      parts.push(`<h3>${escapeHtml(sectionTitle(section))}</h3>`, sectionHtml(section));
    }
  }
  parts.push(...quarantineHtml(analysis));
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
