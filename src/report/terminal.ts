/**
 * The terminal report, every line within 100 columns: the header (inputs,
 * runs), the verdict (what is wrong, in one screen), then the sections: a
 * one-row summary as a grid of metric/value pairs, a table with its failing
 * rows first, a long table cut to those and a head, zero rows on one line,
 * empty sections named together at the end. Colour only when asked (TTY and
 * no NO_COLOR); trace text has its control characters escaped.
 */
import { createColors } from 'picocolors';
import type { Analysis, Section } from '../analysis/report-model.js';
import { findingText } from './findings.js';
import { fitTable, tableWidth } from './fit-table.js';
import { emptyText, isTransposed, sectionTitle, tableView, wrapText, type Flag, type ViewCell } from './format.js';
import { countsText, dateRange, inputText, providerText, reportHeader, suitesText } from './header.js';
import { kvGrid } from './kv-grid.js';
import { plural } from './plural.js';
import { QUARANTINE_SHOWN, quarantineLines, quarantineTitle } from './quarantine.js';
import { hiddenText, planRows, zeroText } from './row-plan.js';
import { safeText } from './safe-text.js';
import { verdict } from './verdict.js';
import { padEndWidth, textWidth } from './text-width.js';

export { safeText } from './safe-text.js';

/** Every line of the terminal report fits this many columns. */
export const TERMINAL_WIDTH = 100;
/** Runs and inputs named in the header; the Runs section and --json have the rest. */
const HEADER_RUNS = 3;
const HEADER_INPUTS = 3;
/** Findings listed in the verdict; --json has all of them. */
const VERDICT_FINDINGS = 15;

type Colors = ReturnType<typeof createColors>;

/** Prose wrapped to the width: the first line after `first`, the rest after `rest`. */
function wrap(text: string, width: number, first = '', rest = first): string[] {
  return wrapText(safeText(text), width - Math.max(textWidth(first), textWidth(rest)), ' ').map((l, i) => (i === 0 ? first : rest) + l);
}

function painter(c: Colors): (text: string, flag: Flag) => string {
  return (text, flag) => (flag === 'bad' ? c.red(c.bold(text)) : flag === 'warn' ? c.yellow(text) : text);
}

/** A section table on its own (the diff and `query` use it): the fitted table, then its notes. */
export function renderSectionTable(section: Pick<Section, 'columns' | 'rows' | 'summary'>, color: boolean, width = TERMINAL_WIDTH): string {
  const fitted = fitTable(tableView(section), { width, color });
  const c = createColors(color);
  return [fitted.text, ...fitted.notes.flatMap((note) => wrap(note, width, '  ').map((l) => c.dim(l)))].join('\n');
}

/** `width` fits tables and grids; `prose` wraps the lines of text (Infinity: not wrapped, for output that is not a terminal). */
function headerLines(analysis: Analysis, c: Colors, width: number, prose: number): string[] {
  const h = reportHeader(analysis);
  const out = [c.bold('faultline report') + ` · ${countsText(h)}`];
  for (const run of h.runs.slice(0, HEADER_RUNS)) {
    out.push(...wrap([`run ${run.runId}`, dateRange(run)].filter(Boolean).join(' · '), prose));
    if (run.suites.length > 0) out.push(...wrap(`suites: ${suitesText(run, width - 12)}`, prose, '  ', '    '));
    out.push(...wrap(providerText(run), prose, '  ', '    '));
  }
  if (h.runCount > HEADER_RUNS) out.push(`… and ${plural(h.runCount - Math.min(h.runs.length, HEADER_RUNS), 'more run')} (see Runs)`);
  for (const input of h.inputs.slice(0, HEADER_INPUTS)) out.push(...wrap(inputText(input), prose, 'input ', '  '));
  const rest = h.inputs.slice(HEADER_INPUTS);
  if (rest.length > 0) out.push(`… and ${plural(rest.length, 'more input')} (${rest.filter((i) => i.empty).length} empty; all in --json)`);
  return out;
}

function verdictLines(analysis: Analysis, c: Colors, width: number): string[] {
  const v = verdict(analysis);
  const paint = painter(c);
  const mark = v.errors > 0 ? c.red(c.bold('✗')) : v.warnings > 0 ? c.yellow('!') : c.green('✓');
  const out = [`${c.bold('Verdict')} ${mark} ${c.bold(v.headline)}`];
  for (const f of v.findings.slice(0, VERDICT_FINDINGS)) {
    const lines = wrap(findingText(f), width, '  ✗ ', '    ');
    const sign = f.level === 'error' ? c.red('✗') : c.yellow('!');
    out.push(...lines.map((l, i) => (i === 0 ? `  ${sign}${l.slice(3)}` : l)));
  }
  if (v.findings.length > VERDICT_FINDINGS) out.push(`  … and ${plural(v.findings.length - VERDICT_FINDINGS, 'more finding')} (all in --json)`);
  const label = Math.max(...v.facts.map((f) => textWidth(f.label)));
  for (const fact of v.facts) {
    const lines = wrap(fact.text, width, `  ${padEndWidth(fact.label, label)}  `, ' '.repeat(label + 4));
    out.push(...lines.map((l) => (fact.flag === null ? l : paint(l, fact.flag))));
  }
  return out;
}

function sectionLines(section: Section, c: Colors, width: number, prose: number): string[] {
  const paint = painter(c);
  const paintCell = (cell: ViewCell) => paint(cell.text, cell.flag);
  const note = (text: string | null) => (text === null ? [] : wrap(text, prose, '  ').map((l) => c.dim(l)));
  const title = wrap(sectionTitle(section), prose, '', '  ').map((l) => c.bold(l));
  if (isTransposed(section)) {
    const view = tableView(section);
    return [...title, ...kvGrid(view.rows.map(([name, value]) => ({ name: name?.text ?? '', value: value as ViewCell })), { width, indent: '  ', paint: paintCell })];
  }
  const plan = planRows(section);
  const out = [...title];
  if (plan.shown.length > 0) {
    const view = tableView({ ...section, rows: plan.shown });
    if (plan.shown.length === 1 && tableWidth(view) > width) {
      // one row too wide for a table: its cells as metric/value pairs
      const row = view.rows[0] ?? [];
      out.push(...kvGrid(view.head.map((name, i) => ({ name, value: row[i] as ViewCell })), { width, indent: '  ', paint: paintCell }));
    } else {
      const fitted = fitTable(view, { width, color: c.isColorSupported });
      out.push(fitted.text, ...fitted.notes.flatMap(note));
    }
  }
  out.push(...note(hiddenText(plan)), ...zeroText(plan, section.columns).flatMap(note));
  return out;
}

/** One section as the terminal report shows it, line by line (its budget, `-- budget: N`, is checked against this). */
export function renderSectionLines(section: Section, options: { color: boolean; width?: number }): string[] {
  const width = options.width ?? TERMINAL_WIDTH;
  return sectionLines(section, createColors(options.color), width, width).join('\n').split('\n');
}

/**
 * `wrap: false` (output that is not a terminal: a pipe, a file, a CI log)
 * leaves every line of text whole — a path, a finding, a note — so it can be
 * searched and matched; tables still fit `width`.
 */
export function renderTerminal(analysis: Analysis, options: { color: boolean; width?: number; wrap?: boolean }): string {
  const c = createColors(options.color);
  const width = options.width ?? TERMINAL_WIDTH;
  const prose = options.wrap === false ? Infinity : width;
  const out: string[] = [...headerLines(analysis, c, width, prose), '', ...verdictLines(analysis, c, prose), ''];
  const empty: string[] = [];
  for (const report of analysis.reports) {
    for (const section of report.sections) {
      if (section.chartOnly || section.header) continue;
      if (section.rows.length === 0) empty.push(`${section.title.replace(/ \(.*$/, '')} (${emptyText(section)})`);
      else out.push(...sectionLines(section, c, width, prose), '');
    }
  }
  if (empty.length > 0) out.push(...wrap(`Nothing to show: ${empty.join(', ')}`, prose, '', '  '), '');
  if (analysis.load.quarantined.length > 0) {
    out.push(c.bold(quarantineTitle(analysis.load.quarantined)));
    for (const l of quarantineLines(analysis.load.quarantined, QUARANTINE_SHOWN)) out.push(...wrap(l, prose, '  ', '    '));
    out.push('');
  }
  return out.join('\n') + '\n';
}
