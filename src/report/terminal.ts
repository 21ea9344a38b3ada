/** Terminal tables (cli-table3); colour only when asked (TTY and no NO_COLOR). */
import Table from 'cli-table3';
import { createColors } from 'picocolors';
import type { Analysis, Section } from '../analysis/report-model.js';
import { emptyText, sectionTitle, tableView, wrapText, type Flag } from './format.js';
import { findings, reconciliation } from './findings.js';
import { QUARANTINE_SHOWN, quarantineLines, quarantineTitle } from './quarantine.js';
import { INPUTS_SHOWN, inputSummary, inputsRest, inputsTitle } from './input-header.js';

/** A table wider than this gets its headers wrapped at underscores, then its widest text columns narrowed. */
const TABLE_WIDTH = 120;
/** Free text (expectation details, long ids) wraps at this width inside its cell, or narrower to fit TABLE_WIDTH. */
const TEXT_WIDTH = 60;
/** A text column is never narrowed below this. */
const MIN_TEXT_WIDTH = 24;

/** Control characters in trace-derived text could move the cursor or recolour the terminal. */
export function safeText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const widest = (lines: string[]): number => lines.reduce((w, l) => Math.max(w, l.length), 0);

export function renderSectionTable(section: Pick<Section, 'columns' | 'rows' | 'summary'>, color: boolean): string {
  const c = createColors(color);
  const paint = (text: string, flag: Flag): string => (flag === 'bad' ? c.red(c.bold(text)) : flag === 'warn' ? c.yellow(text) : text);
  const view = tableView(section);
  const texts = view.rows.map((row) => row.map((cell) => safeText(cell.text)));
  const wrapColumn = (i: number, width: number): string[][] => texts.map((row) => wrapText(row[i] ?? '', width, ' '));
  const columns = view.head.map((_, i) => wrapColumn(i, TEXT_WIDTH));
  const cellWidth = columns.map((lines) => widest(lines.flat()));
  /** A header wrapped at underscores to `width`, or to its longest word if that is wider: never cut inside a word. */
  const wrapHead = (h: string, width: number): string[] => wrapText(h, Math.max(width, widest(h.split(/(?<=_)/))), '_');
  let head = view.head.map((h) => [safeText(h)]);
  const tableWidth = () => head.reduce((sum, h, i) => sum + Math.max(widest(h), cellWidth[i] ?? 0) + 3, 1);
  if (tableWidth() > TABLE_WIDTH) {
    // headers as narrow as their column's values, without cutting a word of the header
    head = head.map((h, i) => wrapHead(h.join(''), cellWidth[i] ?? 0));
  }
  // still too wide: narrow the widest text column (to the next widest, at least MIN_TEXT_WIDTH) until it fits
  for (let excess = tableWidth() - TABLE_WIDTH; excess > 0; excess = tableWidth() - TABLE_WIDTH) {
    const text = view.headAlign.map((a, i) => (a === 'left' && (cellWidth[i] ?? 0) > MIN_TEXT_WIDTH ? i : -1)).filter((i) => i >= 0);
    if (text.length === 0) break;
    const i = text.reduce((a, b) => ((cellWidth[b] ?? 0) > (cellWidth[a] ?? 0) ? b : a));
    const next = Math.max(MIN_TEXT_WIDTH, ...text.filter((j) => j !== i).map((j) => cellWidth[j] ?? 0));
    const width = cellWidth[i] ?? 0;
    columns[i] = wrapColumn(i, Math.min(width - 1, Math.max(next, width - excess)));
    cellWidth[i] = widest(columns[i].flat());
    head[i] = wrapHead((head[i] ?? []).join(''), cellWidth[i]);
  }
  const table = new Table({
    head: head.map((h) => h.join('\n')),
    colAligns: view.headAlign,
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
  });
  view.rows.forEach((row, r) => {
    table.push(row.map((cell, i) => ({ content: (columns[i]?.[r] ?? []).map((l) => paint(l, cell.flag)).join('\n'), hAlign: cell.align })));
  });
  return table.toString();
}

export function renderTerminal(analysis: Analysis, options: { color: boolean }): string {
  const c = createColors(options.color);
  const out: string[] = [c.bold('faultline report'), `${inputsTitle(analysis.inputs)}:`];
  for (const input of analysis.inputs.slice(0, INPUTS_SHOWN)) out.push(`  ${safeText(input.path)}: ${safeText(inputSummary(input))}`);
  const moreInputs = inputsRest(analysis.inputs);
  if (moreInputs !== null) out.push(`  ${moreInputs}`);
  out.push(reconciliation(analysis), '');
  const found = findings(analysis);
  if (found.length > 0) {
    out.push(c.bold('Findings'));
    for (const f of found) out.push(`  ${f.level === 'error' ? c.red('✗') : c.yellow('!')} ${safeText(f.text)}`);
    out.push('');
  }
  for (const report of analysis.reports) {
    for (const section of report.sections) {
      if (section.chartOnly) continue;
      out.push(c.bold(safeText(sectionTitle(section))));
      out.push(section.rows.length === 0 ? `  (${emptyText(section)})` : renderSectionTable(section, options.color), '');
    }
  }
  if (analysis.load.quarantined.length > 0) {
    out.push(c.bold(quarantineTitle(analysis.load.quarantined)));
    for (const l of quarantineLines(analysis.load.quarantined, QUARANTINE_SHOWN)) out.push(`  ${safeText(l)}`);
    out.push('');
  }
  out.push(reconciliation(analysis));
  return out.join('\n') + '\n';
}
