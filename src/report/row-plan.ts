/**
 * Which rows of a section a reader sees first, shared by the terminal and
 * HTML renderers (JSON and Markdown keep every row in the analysis's order):
 *
 * - failing rows (a cell flagged `bad` or `warn`) come first, in order, then
 *   rows with a failure, error or lost count above 0 (a tool's tool_error or
 *   exception is not flagged, a tool_error being often correct, but a cut
 *   fills its head with them before any clean row and counts those it hides);
 * - an aggregate row (a label in parentheses, e.g. `(all tools)`) stays last;
 * - rows whose every count is 0 are named on one line instead of a row each
 *   (two or more of them of one class, e.g. one triage; one stays a row);
 * - a long section shows its failing rows and the first `head` others, and
 *   says how many it left out.
 */
import type { Row } from '../analysis/duck.js';
import type { Section } from '../analysis/report-model.js';
import type { SectionFlag } from '../analysis/section-flags.js';
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

/** Columns that class a row (a defense's triage, a check's status): zero rows of different classes are never named on one line. */
const CLASS_COLUMNS = ['triage', 'status'];

/** What a section's rows are called in `… 12 more tools`, from its first column. */
const NOUN: Record<string, string> = { id: 'id', tool: 'tool', server: 'server', defense: 'defense', check_id: 'check', run_id: 'run', logical_run_id: 'logical run' };

export interface RowPlan {
  /** Rows to show, failing first, an aggregate row last. */
  shown: Row[];
  /** Rows left out of a long section, in order. */
  hiddenRows: Row[];
  /** How many of them: `hiddenRows.length`. */
  hidden: number;
  /** Flagged rows among the hidden ones (only past MAX_FAILING). */
  hiddenFailing: number;
  /** Rows with a failure count above 0 (not flagged) among the hidden ones. */
  hiddenWithFailures: number;
  /** Rows whose every count is 0, shown as one line per class (empty with `keepZero`). */
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

/** A row with a cell its section flags (`-- flag:` in the section's SQL). */
export function isFailing(row: Row, columns: readonly string[], flags: readonly SectionFlag[] | undefined): boolean {
  return columns.some((c) => cellFlag(c, row[c], row, flags) !== null);
}

/** Counts of things that went wrong (`failures`, `failures_execution`, `errors`, `lost`), not rates. */
const FAILURE_COUNT = /(^|_)(failures?|failed|errors?|lost)(_|$)/;

/** A row with a failure, error or lost count above 0. */
export function hasFailures(row: Row, columns: readonly string[]): boolean {
  return columns.some((c) => FAILURE_COUNT.test(c) && !/(rate|share)/.test(c) && typeof row[c] === 'number' && row[c] > 0);
}

/** What the two kinds of rows a cut never hides silently are, as `hiddenText` says it. */
export const FAILING_MEANS = 'failing = a value flagged red or yellow; with failures = a failure, error or lost count > 0';

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

export function planRows(section: Pick<Section, 'id' | 'columns' | 'rows' | 'flags'>, options: PlanOptions = {}): RowPlan {
  const { columns } = section;
  const failing: Row[] = [];
  const withFailures: Row[] = [];
  const plain: Row[] = [];
  const aggregate: Row[] = [];
  const zero: Row[] = [];
  for (const row of section.rows) {
    if (isAggregate(row, columns)) aggregate.push(row);
    else if (isFailing(row, columns, section.flags)) failing.push(row);
    else if (hasFailures(row, columns)) withFailures.push(row);
    else if (isZero(row, columns)) zero.push(row);
    else plain.push(row);
  }
  // a single zero row of its class reads best as a row
  if (options.keepZero) plain.push(...zero.splice(0));
  else {
    const lone = zeroGroups(zero, columns).filter((g) => g.length === 1).flat();
    plain.push(...lone);
    for (const row of lone) zero.splice(zero.indexOf(row), 1);
  }
  const noun = nounOf(section);
  const cut = options.cut !== false && failing.length + withFailures.length + plain.length > (options.long ?? LONG);
  if (!cut) return { shown: [...failing, ...withFailures, ...plain, ...aggregate], hiddenRows: [], hidden: 0, hiddenFailing: 0, hiddenWithFailures: 0, zero, noun };
  // the head is filled with rows that had failures before any clean row
  const head = HEAD_OF[section.id] ?? options.head ?? HEAD;
  const troubled = withFailures.slice(0, Math.max(head, 0));
  const clean = plain.slice(0, Math.max(0, head - troubled.length));
  const hiddenRows = [...failing.slice(MAX_FAILING), ...withFailures.slice(troubled.length), ...plain.slice(clean.length)];
  return {
    shown: [...failing.slice(0, MAX_FAILING), ...troubled, ...clean, ...aggregate],
    hiddenRows,
    hidden: hiddenRows.length,
    hiddenFailing: Math.max(0, failing.length - MAX_FAILING),
    hiddenWithFailures: withFailures.length - troubled.length,
    zero,
    noun,
  };
}

/** `… 225 more ids, none failing, none with failures (…)` (or `3 of them failing, 5 with failures`), or null when nothing was left out. */
export function hiddenText(plan: RowPlan): string | null {
  if (plan.hidden === 0) return null;
  const failing = plan.hiddenFailing === 0 ? 'none failing' : `${plan.hiddenFailing} of them failing`;
  const failures = plan.hiddenWithFailures === 0 ? 'none with failures' : `${plan.hiddenWithFailures} with failures`;
  return `… ${plural(plan.hidden, `more ${plan.noun}`, `more ${plan.noun}s`)}, ${failing}, ${failures} (${FAILING_MEANS})`;
}

/** Zero rows by their class (CLASS_COLUMNS), each group in order of its first row. */
function zeroGroups(zero: readonly Row[], columns: readonly string[]): Row[][] {
  const classes = CLASS_COLUMNS.filter((c) => columns.includes(c));
  const groups = new Map<string, Row[]>();
  for (const row of zero) {
    const key = JSON.stringify(classes.map((c) => row[c] ?? null));
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()];
}

/** `0 in every count: aborted, error, failed` — one class's zero rows by their first cell, with any other label they all share (`(triage disarmed)`). */
function zeroLine(zero: readonly Row[], columns: readonly string[]): string {
  // the rows are named by the first text column that tells them apart (failure_kind, not phase)
  const text = columns.filter((c) => zero.every((r) => typeof r[c] === 'string'));
  const key = text.find((c) => new Set(zero.map((r) => r[c])).size === zero.length) ?? columns[0] ?? '';
  const names = zero.map((r) => formatCell(key, r[key] ?? null));
  const shared = text
    .filter((c) => c !== key && zero.every((r) => r[c] === zero[0]?.[c]))
    .map((c) => `${c} ${formatCell(c, zero[0]?.[c] ?? null)}`)
    .filter((t) => !t.endsWith(' '));
  return `0 in every count${shared.length > 0 ? ` (${shared.join(', ')})` : ''}: ${names.join(', ')}`;
}

/** One line per class of zero rows (a defense's triage: `unknown` rows never share a line with `disarmed` ones); none without zero rows. */
export function zeroText(plan: RowPlan, columns: readonly string[]): string[] {
  return zeroGroups(plan.zero, columns).map((group) => zeroLine(group, columns));
}
