/**
 * Which rows of a section a reader sees first, shared by the terminal and
 * HTML renderers (JSON and Markdown keep every row in the analysis's order):
 *
 * - failing rows (a cell flagged `bad` or `warn`) come first, in order;
 * - an aggregate row (a label in parentheses, e.g. `(all tools)`) stays last;
 * - rows whose every count is 0 are named on one line instead of a row each
 *   (two or more of them; one stays a row);
 * - a long section shows its failing rows and the first `head` others, and
 *   says how many it left out.
 */
import type { Row } from '../analysis/duck.js';
import type { Section } from '../analysis/report-model.js';
import { cellFlag, formatCell } from './format.js';
import { plural } from './plural.js';

/** More rows than this (zero rows aside) and a section is cut to its failing rows and a head. */
export const LONG = 12;
/** Rows shown besides the failing ones when a section is cut. */
export const HEAD = 8;
/** Failing rows shown at most; the rest are counted. */
export const MAX_FAILING = 30;

/** Per-section exceptions to the cut: a checklist reads whole; a list where only failures matter shows no head. */
const HEAD_OF: Record<string, number> = {
  expectations: 0,
  conformance_checks: Number.POSITIVE_INFINITY,
};

/** What a section's rows are called in `… 12 more tools`, from its first column. */
const NOUN: Record<string, string> = { id: 'id', tool: 'tool', server: 'server', defense: 'defense', check_id: 'check', run_id: 'run', logical_run_id: 'logical run' };

export interface RowPlan {
  /** Rows to show, failing first, an aggregate row last. */
  shown: Row[];
  /** Rows left out of a long section, in order. */
  hiddenRows: Row[];
  /** How many of them: `hiddenRows.length`. */
  hidden: number;
  /** Failing rows among the hidden ones (only past MAX_FAILING). */
  hiddenFailing: number;
  /** Rows whose every count is 0, shown as one line (empty with `keepZero`). */
  zero: Row[];
  /** `tool`, `id`, … or `row`. */
  noun: string;
}

export interface PlanOptions {
  /** false: keep every row. */
  cut?: boolean;
  /** More rows than this and the section is cut (default LONG). */
  long?: number;
  /** Rows shown besides the failing ones (default HEAD; some sections have their own). */
  head?: number;
  /** Zero rows stay rows, after the others (HTML has the room). */
  keepZero?: boolean;
}

export function isFailing(row: Row, columns: readonly string[]): boolean {
  return columns.some((c) => cellFlag(c, row[c], row) !== null);
}

/** An aggregate row: its first cell is a label in parentheses, e.g. `(all tools)` (labels never hold parentheses). */
export function isAggregate(row: Row, columns: readonly string[]): boolean {
  const first = row[columns[0] ?? ''];
  return typeof first === 'string' && /^\(.*\)$/.test(first);
}

/** Every numeric cell is 0 or empty, and there is at least one number. */
export function isZero(row: Row, columns: readonly string[]): boolean {
  const values = columns.map((c) => row[c]);
  return values.some((v) => typeof v === 'number') && values.every((v) => typeof v !== 'number' || v === 0);
}

/** The first column names the rows when it is unique among them (`tool`), else they are rows (tool × failure kind). */
export function nounOf(section: Pick<Section, 'columns' | 'rows'>): string {
  const key = section.columns[0] ?? '';
  const values = section.rows.map((r) => JSON.stringify(r[key] ?? null));
  return new Set(values).size === values.length ? (NOUN[key] ?? 'row') : 'row';
}

export function planRows(section: Pick<Section, 'id' | 'columns' | 'rows'>, options: PlanOptions = {}): RowPlan {
  const { columns } = section;
  const failing: Row[] = [];
  const plain: Row[] = [];
  const aggregate: Row[] = [];
  const zero: Row[] = [];
  for (const row of section.rows) {
    if (isAggregate(row, columns)) aggregate.push(row);
    else if (isFailing(row, columns)) failing.push(row);
    else if (isZero(row, columns)) zero.push(row);
    else plain.push(row);
  }
  // a single zero row reads best as a row
  if (zero.length === 1 || options.keepZero) plain.push(...zero.splice(0));
  const noun = nounOf(section);
  const cut = options.cut !== false && failing.length + plain.length > (options.long ?? LONG);
  if (!cut) return { shown: [...failing, ...plain, ...aggregate], hiddenRows: [], hidden: 0, hiddenFailing: 0, zero, noun };
  const head = HEAD_OF[section.id] ?? options.head ?? HEAD;
  const hiddenRows = [...failing.slice(MAX_FAILING), ...plain.slice(head)];
  const hiddenFailing = Math.max(0, failing.length - MAX_FAILING);
  return { shown: [...failing.slice(0, MAX_FAILING), ...plain.slice(0, head), ...aggregate], hiddenRows, hidden: hiddenRows.length, hiddenFailing, zero, noun };
}

/** `… 225 more ids, none failing` (or `, 3 of them failing`), or null when nothing was left out. */
export function hiddenText(plan: RowPlan): string | null {
  if (plan.hidden === 0) return null;
  const failing = plan.hiddenFailing === 0 ? 'none failing' : `${plan.hiddenFailing} of them failing`;
  return `… ${plural(plan.hidden, `more ${plan.noun}`, `more ${plan.noun}s`)}, ${failing}`;
}

/**
 * `0 in every count: aborted, error, failed` — the zero rows by their first
 * cell, with any other label they all share (`(triage disarmed)`).
 */
export function zeroText(plan: RowPlan, columns: readonly string[]): string | null {
  if (plan.zero.length === 0) return null;
  // the rows are named by the first text column that tells them apart (failure_kind, not phase)
  const text = columns.filter((c) => plan.zero.every((r) => typeof r[c] === 'string'));
  const key = text.find((c) => new Set(plan.zero.map((r) => r[c])).size === plan.zero.length) ?? columns[0] ?? '';
  const names = plan.zero.map((r) => formatCell(key, r[key] ?? null));
  const shared = text
    .filter((c) => c !== key && plan.zero.every((r) => r[c] === plan.zero[0]?.[c]))
    .map((c) => `${c} ${formatCell(c, plan.zero[0]?.[c] ?? null)}`)
    .filter((t) => !t.endsWith(' '));
  return `0 in every count${shared.length > 0 ? ` (${shared.join(', ')})` : ''}: ${names.join(', ')}`;
}
