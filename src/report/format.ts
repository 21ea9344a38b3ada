/**
 * Cell formatting and table layout shared by the terminal, Markdown and HTML
 * renderers (JSON keeps raw values): numbers right-aligned and labels
 * left-aligned by what a column holds, never by its position; a one-row
 * summary laid out as metric/value pairs; cells a reader must not miss
 * flagged.
 */
import type { Row, Scalar } from '../analysis/duck.js';
import type { Section } from '../analysis/report-model.js';
import { passes, type SectionFlag } from '../analysis/section-flags.js';
import { triageLevel } from './triage.js';
import { headToWidth, textWidth } from './text-width.js';

/** Rates and shares are fractions in the data; shown as percentages. */
export function isRateColumn(column: string): boolean {
  return /(^|_)(rate|share)(_|$)/.test(column);
}

export function formatCell(column: string, value: Scalar | Scalar[]): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    if (isRateColumn(column)) return `${(value * 100).toFixed(value !== 0 && Math.abs(value) < 0.001 ? 3 : 1)}%`;
    if (Number.isInteger(value)) return String(value);
    return value.toFixed(Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 1 ? 1 : 3);
  }
  return String(value);
}

export { plural } from './plural.js';

export type Align = 'left' | 'right';
/** `bad`: broken by construction (lost calls, unwired defense, failed checks); `warn`: needs a look. */
export type Flag = 'bad' | 'warn' | null;

export interface ViewCell {
  text: string;
  align: Align;
  flag: Flag;
}

export interface TableView {
  head: string[];
  headAlign: Align[];
  rows: ViewCell[][];
}

/** Numbers (and the — of a missing number) go right; text, labels and yes/no go left. */
function alignOf(value: Scalar | Scalar[] | undefined): Align {
  return value === null || value === undefined || typeof value === 'number' ? 'right' : 'left';
}

/** A column is numeric when every value it has is a number. */
function columnAlign(rows: Section['rows'], column: string): Align {
  return rows.every((r) => alignOf(r[column]) === 'right') ? 'right' : 'left';
}

/**
 * The flag of one cell, from the flags its section declares (`-- flag:` lines
 * in the section's SQL, src/analysis/section-flags.ts): never from the
 * column's name alone, so a column named like a flagged one in another
 * section is not coloured. `row` gives the cells around it, for flags that
 * depend on them (an exception kind with failures, a triage on an armed defense).
 */
export function cellFlag(column: string, value: Scalar | Scalar[] | undefined, row: Row | undefined, flags: readonly SectionFlag[] | undefined): Flag {
  let out: Flag = null;
  for (const f of flags ?? []) {
    if (f.column !== column) continue;
    if ('rule' in f) {
      const level = triageLevel(value, row);
      if (level === 'error') return 'bad';
      if (level === 'warning') out = 'warn';
      continue;
    }
    if (!passes(value, f) || (f.when && !passes(row?.[f.when.column], f.when))) continue;
    if (f.level === 'bad') return 'bad';
    out = 'warn';
  }
  return out;
}

/** True when the section is a single row of totals, shown as metric/value pairs (a column per metric would not fit). */
export function isTransposed(section: Pick<Section, 'rows' | 'summary'>): boolean {
  return section.summary === true && section.rows.length === 1;
}

/** The section as every table renderer lays it out. */
export function tableView(section: Pick<Section, 'columns' | 'rows' | 'summary' | 'flags'>): TableView {
  const cell = (column: string, value: Scalar | Scalar[] | undefined, align: Align, row?: Row): ViewCell => ({
    text: formatCell(column, value ?? null),
    align,
    flag: cellFlag(column, value, row, section.flags),
  });
  const [only] = section.rows;
  if (isTransposed(section) && only) {
    return {
      head: ['metric', 'value'],
      headAlign: ['left', 'right'],
      rows: section.columns.map((c) => [{ text: c, align: 'left', flag: null }, cell(c, only[c], alignOf(only[c]))]),
    };
  }
  const aligns = section.columns.map((c) => columnAlign(section.rows, c));
  return {
    head: section.columns,
    headAlign: aligns,
    rows: section.rows.map((row) => section.columns.map((c, i) => cell(c, row[c], aligns[i] ?? 'left', row))),
  };
}

/** The title with the cut stated when the section holds only the first rows of a longer result. */
export function sectionTitle(section: Pick<Section, 'title' | 'rows' | 'totalRows'>): string {
  const total = section.totalRows;
  if (total === undefined || total === 0) return section.title;
  if (total > section.rows.length) return `${section.title} — first ${section.rows.length} of ${total} shown`;
  return `${section.title} — ${total} in all`;
}

/** What an empty section says: a capped list (of failures, say) is empty when there are none. */
export function emptyText(section: Pick<Section, 'totalRows'>): string {
  return section.totalRows === undefined ? 'no events' : 'none';
}

/**
 * Breaks text into lines of at most `width` terminal columns after any character
 * in `breaks` (which stays at the end of its line); a piece longer than
 * `width` is cut.
 */
export function wrapText(text: string, width: number, breaks: string): string[] {
  const pieces = text.split(new RegExp(`(?<=[${breaks.replace(/[\]\\^-]/g, '\\$&')}])`));
  const lines: string[] = [];
  let current = '';
  for (let piece of pieces) {
    if (current !== '' && textWidth((current + piece).trimEnd()) > width) {
      lines.push(current);
      current = '';
    }
    while (current === '' && textWidth(piece.trimEnd()) > width) {
      const head = headToWidth(piece, width);
      lines.push(head);
      piece = piece.slice(head.length);
    }
    current += piece;
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines.map((l) => l.trimEnd());
}
