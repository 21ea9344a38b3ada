/**
 * The pieces of the HTML report: header (runs and inputs in full), verdict,
 * table of contents and section tables (failing rows first; a long table's
 * other rows folded in a <details>, which needs no script). Every string
 * from a trace goes through escapeHtml.
 */
import type { Row } from '../analysis/duck.js';
import type { Analysis, InputFile, Section } from '../analysis/report-model.js';
import { findingText } from './findings.js';
import { emptyText, tableView, type ViewCell } from './format.js';
import { countsText, dateRange, providerText, reportHeader, suitesText, type RunIdentity } from './header.js';
import { inputFacts } from './input-header.js';
import { plural } from './plural.js';
import { hiddenText, isAggregate, planRows } from './row-plan.js';
import { verdict } from './verdict.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** An element id from our own ids (section, report and chart ids): letters, digits, `_` and `-` only. */
export function anchor(kind: string, id: string): string {
  return `${kind}-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** Rows of a long table shown before the rest is folded away; HTML has more room than a terminal. */
const HTML_LONG = 25;
const HTML_HEAD = 15;
/** Column names longer than this may wrap after their underscores; shorter ones stay whole. */
const WRAP_HEAD_OVER = 10;

/** A column name; a long one wraps after its underscores (escapeHtml never writes `_`, so the tags land only there). */
function headHtml(name: string): string {
  const text = escapeHtml(name);
  return name.length > WRAP_HEAD_OVER ? text.replaceAll('_', '_<wbr>') : text;
}

function cellHtml(cell: ViewCell, tag: 'td' | 'th', text: string): string {
  const classes = [cell.align === 'right' ? 'num' : '', cell.flag ?? ''].filter((c) => c !== '');
  return `<${tag}${classes.length > 0 ? ` class="${classes.join(' ')}"` : ''}>${text}</${tag}>`;
}

/** A cell's link target: an element id of this page (a session's view), or null for plain text. */
export type CellLink = (column: string, row: Row) => string | null;

function tableHtml(section: Pick<Section, 'columns' | 'rows' | 'summary'>, link?: CellLink): string {
  const view = tableView(section);
  const head = view.head.map((h, i) => cellHtml({ text: h, align: view.headAlign[i] ?? 'left', flag: null }, 'th', headHtml(h))).join('');
  const linked = (cell: ViewCell, r: number, c: number): string => {
    const row = section.rows[r];
    const to = link && row && view.head.length === section.columns.length ? link(section.columns[c] ?? '', row) : null;
    return to === null ? escapeHtml(cell.text) : `<a href="#${to}">${escapeHtml(cell.text)}</a>`;
  };
  const body = view.rows.map((row, r) => `<tr>${row.map((cell, c) => cellHtml(cell, 'td', linked(cell, r, c))).join('')}</tr>`).join('\n');
  return `<div class="table"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** The section's table, failing rows first; past HTML_LONG rows the others fold into a <details> with the same columns. */
export function sectionHtml(section: Section, link?: CellLink): string {
  if (section.rows.length === 0) return `<p><em>${emptyText(section)}</em></p>`;
  const plan = planRows(section, { long: HTML_LONG, head: HTML_HEAD, keepZero: true });
  const parts = [tableHtml({ ...section, rows: plan.shown }, link)];
  const rest = hiddenText(plan);
  if (rest !== null) parts.push(`<details><summary>${escapeHtml(rest.replace(/^… /, ''))}</summary>${tableHtml({ ...section, rows: plan.hiddenRows }, link)}</details>`);
  return parts.join('\n');
}

/** How many rows of a section fail: the table of contents says so next to its name. */
export function failingCount(section: Section): { count: number; flag: 'bad' | 'warn' | null } {
  // an aggregate row, e.g. (all tools), repeats what its rows say
  const view = tableView({ ...section, rows: section.rows.filter((r) => !isAggregate(r, section.columns)) });
  const flags = view.rows.map((row) => (row.some((c) => c.flag === 'bad') ? 'bad' : row.some((c) => c.flag === 'warn') ? 'warn' : null));
  const count = flags.filter((f) => f !== null).length;
  return { count, flag: flags.includes('bad') ? 'bad' : flags.includes('warn') ? 'warn' : null };
}

const cell = (v: string | null) => `<td>${v === null ? '—' : escapeHtml(v)}</td>`;
/** Runs and inputs shown in the header's summary; all of them are in a folded table below it. */
const HEADER_SHOWN = 5;

/** A run's suites: the first names, all of them one click away. */
function suitesHtml(run: RunIdentity, max: number): string {
  const short = suitesText(run, max);
  const all = `${run.suites.join(', ')}${run.suitesCut ? ' … (the list was cut where the trace stores it)' : ''}`;
  return short === all ? escapeHtml(all) : `<details><summary>${escapeHtml(short)}</summary>${escapeHtml(all)}</details>`;
}

/** Several runs: a row each (id, dates, suites, provider and model), the first HEADER_SHOWN in view and the rest folded. */
function runsTable(runs: readonly RunIdentity[]): string {
  const row = (run: RunIdentity) =>
    `<tr><td><code>${escapeHtml(run.runId)}</code></td>${cell(dateRange(run))}<td>${run.suites.length === 0 ? '—' : suitesHtml(run, 60)}</td>${cell(providerText(run))}</tr>`;
  const table = (rows: readonly RunIdentity[]) =>
    `<div class="table"><table class="runs"><thead><tr><th>run</th><th>dates</th><th>suites</th><th>provider · model</th></tr></thead><tbody>${rows.map(row).join('')}</tbody></table></div>`;
  const rest = runs.slice(HEADER_SHOWN);
  return table(runs.slice(0, HEADER_SHOWN)) + (rest.length > 0 ? `<details><summary>${escapeHtml(plural(rest.length, 'more run'))}</summary>${table(rest)}</details>` : '');
}

/** One run: its id and dates, its suites, provider, model and the wires and models it called, a row each. */
function runRows(run: RunIdentity): string {
  const dates = dateRange(run);
  const suites = run.suites.length === 0 ? '' : `<tr><th>suites</th><td>${suitesHtml(run, 110)}</td></tr>`;
  return [
    `<tr class="run"><th>run</th><td><code>${escapeHtml(run.runId)}</code>${dates ? ` · ${escapeHtml(dates)}` : ''}</td></tr>`,
    suites,
    `<tr><th>provider</th>${cell(run.provider)}</tr>`,
    `<tr><th>model</th>${cell(run.model)}</tr>`,
    run.requestProviders !== null || run.requestModels !== null ? `<tr><th>requests</th>${cell([run.requestProviders, run.requestModels].filter(Boolean).join(' · '))}</tr>` : '',
    run.transports !== null ? `<tr><th>transport</th>${cell(run.transports)}</tr>` : '',
  ].join('');
}

function inputsTable(inputs: readonly InputFile[]): string {
  const rows = inputs.map((input) => {
    const lines = input.empty ? '<td class="num warn">empty</td>' : `<td class="num">${input.lines}</td>`;
    return `<tr><td><code>${escapeHtml(input.path)}</code></td>${lines}${cell(input.run_ids.join(', ') || null)}</tr>`;
  });
  return `<div class="table"><table class="inputs"><thead><tr><th>file</th><th class="num">lines</th><th>runs</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

export function headerHtml(analysis: Analysis): string {
  const h = reportHeader(analysis);
  const parts = [`<header><h1>faultline report</h1><p class="counts">${escapeHtml(countsText(h))}</p>`];
  if (h.runs.length > 1) parts.push(runsTable(h.runs));
  parts.push(`<table class="meta header"><tbody>`);
  if (h.runs.length === 1 && h.runs[0]) parts.push(runRows(h.runs[0]));
  if (h.runCount > h.runs.length) parts.push(`<tr><th></th><td>… and ${escapeHtml(plural(h.runCount - h.runs.length, 'more run'))} (see Runs)</td></tr>`);
  const inputs = h.inputs.map((i) => `<code>${escapeHtml(i.path)}</code> · ${escapeHtml(inputFacts(i).join(' · '))}`);
  inputs.slice(0, HEADER_SHOWN).forEach((text, i) => parts.push(`<tr${i === 0 ? ' id="inputs"' : ''}><th>${i === 0 ? 'inputs' : ''}</th><td>${text}</td></tr>`));
  if (inputs.length > HEADER_SHOWN) parts.push(`<tr><th></th><td>… and ${escapeHtml(plural(inputs.length - HEADER_SHOWN, 'more input'))}</td></tr>`);
  parts.push(`</tbody></table>`);
  if (h.inputs.length > 1) parts.push(`<details><summary>every input with its lines and runs</summary>${inputsTable(h.inputs)}</details>`);
  parts.push(`</header>`);
  return parts.join('\n');
}

export function verdictHtml(analysis: Analysis): string {
  const v = verdict(analysis);
  const level = v.errors > 0 ? 'v-bad' : v.warnings > 0 ? 'v-warn' : 'v-ok';
  const parts = [`<section id="verdict" class="verdict ${level}"><h2>Verdict: ${escapeHtml(v.headline)}</h2>`];
  if (v.findings.length > 0) {
    parts.push(`<ul class="findings">`);
    for (const f of v.findings) {
      const see = f.see ? ` <span class="see">(README › ${escapeHtml(f.see.title)})</span>` : '';
      parts.push(`<li class="${f.level === 'error' ? 'bad' : 'warn'}">${escapeHtml(f.see ? f.text : findingText(f))}${see}</li>`);
    }
    parts.push(`</ul>`);
  }
  parts.push(`<table class="meta facts"><tbody>`);
  for (const fact of v.facts) parts.push(`<tr><th>${escapeHtml(fact.label)}</th><td${fact.flag ? ` class="${fact.flag}"` : ''}>${escapeHtml(fact.text)}</td></tr>`);
  parts.push(`</tbody></table></section>`);
  return parts.join('\n');
}

export interface TocEntry {
  id: string;
  text: string;
  flag?: 'bad' | 'warn' | null;
  children?: TocEntry[];
}

export function tocHtml(entries: TocEntry[]): string {
  const list = (items: TocEntry[]): string =>
    `<ol>${items
      .map((e) => `<li><a href="#${e.id}"${e.flag ? ` class="${e.flag}"` : ''}>${escapeHtml(e.text)}</a>${e.children && e.children.length > 0 ? list(e.children) : ''}</li>`)
      .join('')}</ol>`;
  return `<nav class="toc" id="contents"><h2>Contents</h2>${list(entries)}</nav>`;
}

/** `Tool funnel per tool` from `Tool funnel per tool (lost = …)`. */
export function shortTitle(title: string): string {
  return title.replace(/ \(.*$/, '');
}
