/**
 * A diff table as a reader compares it in a terminal: `base_X` and
 * `candidate_X` in one cell (`11 → 95`), an interval's `_ci95_low` and
 * `_ci95_high` in one cell (`-3.9% .. 25.9%`). A one-row table becomes
 * metric/value pairs; a row that has only one side (nothing to compare, its
 * change empty) is named on a line instead (`only in candidate: ls, sleep`).
 * The JSON and Markdown diffs keep the columns as computed.
 */
import type { Row } from '../analysis/duck.js';
import { formatCell, type Align, type TableView, type ViewCell } from './format.js';

/** One column of the pivoted view: how to read its text from a row. */
interface Column {
  name: string;
  text: (row: Row) => string;
  numeric: boolean;
}

const BASE = 'base_';
const CANDIDATE = 'candidate_';

function isNumeric(rows: readonly Row[], columns: readonly string[]): boolean {
  return rows.every((r) => columns.every((c) => r[c] === null || r[c] === undefined || typeof r[c] === 'number'));
}

/** `74.1% .. 100.0%`, or — when either end is missing. */
function interval(row: Row, low: string, high: string): string {
  const [l, h] = [row[low] ?? null, row[high] ?? null];
  return l === null || h === null ? '—' : `${formatCell(low, l)} .. ${formatCell(high, h)}`;
}

/** Merges `X_ci95_low`/`X_ci95_high` into `X_ci95` and `base_X`/`candidate_X` into `X`, in the order the columns come. */
function pivotColumns(columns: readonly string[], rows: readonly Row[]): Column[] {
  const out: Column[] = [];
  const used = new Set<string>();
  const side = (name: string): Column => {
    const ci = name.endsWith('_ci95_low') && columns.includes(name.replace(/_low$/, '_high'));
    if (ci) {
      const high = name.replace(/_low$/, '_high');
      used.add(high);
      return { name: name.replace(/_low$/, ''), text: (r) => interval(r, name, high), numeric: true };
    }
    return { name, text: (r) => formatCell(name, r[name] ?? null), numeric: isNumeric(rows, [name]) };
  };
  for (const name of columns) {
    if (used.has(name)) continue;
    used.add(name);
    const partner = name.startsWith(BASE) ? `${CANDIDATE}${name.slice(BASE.length)}` : null;
    if (partner !== null && columns.includes(partner)) {
      used.add(partner);
      const [b, c] = [side(name), side(partner)];
      if (name.endsWith('_ci95_low')) used.add(partner.replace(/_low$/, '_high'));
      out.push({ name: name.slice(BASE.length).replace(/_low$/, ''), text: (r) => `${b.text(r)} → ${c.text(r)}`, numeric: b.numeric && c.numeric });
    } else out.push(side(name));
  }
  return out;
}

const none = (v: unknown): boolean => v === null || v === undefined || v === 0;

/**
 * `zero`: both sides hold nothing but 0 or empty; `base`/`candidate`: only
 * that side has something and no change was computed (nothing to compare).
 */
function sides(row: Row, columns: readonly string[]): 'base' | 'candidate' | 'zero' | null {
  const empty = (prefix: string) => columns.filter((c) => c.startsWith(prefix) && (typeof row[c] === 'number' || row[c] === null)).every((c) => none(row[c]));
  if (empty(BASE) && empty(CANDIDATE)) return 'zero';
  const changes = columns.filter((c) => c.includes('change'));
  if (changes.length === 0 || !changes.every((c) => row[c] === null || row[c] === undefined)) return null;
  if (empty(BASE) && !empty(CANDIDATE)) return 'candidate';
  if (empty(CANDIDATE) && !empty(BASE)) return 'base';
  return null;
}

export interface DiffView {
  /** A table of rows, or null for a one-row table shown as pairs. */
  table: TableView | null;
  pairs: { name: string; value: ViewCell }[];
  /** `only in candidate: ls, sleep`, `0 on both sides: token_budget`. */
  notes: string[];
}

export function diffView(t: { columns: string[]; rows: Row[] }): DiffView {
  const apart = { base: [] as string[], candidate: [] as string[], zero: [] as string[] };
  // rows are named by the first text column that tells them apart (failure_kind, not phase)
  const key = t.columns.find((c) => t.rows.every((r) => typeof r[c] === 'string') && new Set(t.rows.map((r) => r[c])).size === t.rows.length) ?? t.columns[0] ?? '';
  const rows = t.rows.filter((r) => {
    const side = t.rows.length > 1 ? sides(r, t.columns) : null;
    if (side !== null) apart[side].push(formatCell(key, r[key] ?? null));
    return side === null;
  });
  const columns = pivotColumns(t.columns, rows);
  const say = { base: 'only in base', candidate: 'only in candidate', zero: '0 on both sides' } as const;
  const notes = (['base', 'candidate', 'zero'] as const).filter((s) => apart[s].length > 0).map((s) => `${say[s]}: ${apart[s].join(', ')}`);
  const cell = (text: string, align: Align): ViewCell => ({ text, align, flag: null });
  if (t.rows.length === 1 && rows[0]) {
    const row = rows[0];
    return { table: null, pairs: columns.map((c) => ({ name: c.name, value: cell(c.text(row), c.numeric ? 'right' : 'left') })), notes };
  }
  const aligns: Align[] = columns.map((c) => (c.numeric ? 'right' : 'left'));
  return {
    table: { head: columns.map((c) => c.name), headAlign: aligns, rows: rows.map((r) => columns.map((c, i) => cell(c.text(r), aligns[i] ?? 'left'))) },
    pairs: [],
    notes,
  };
}
