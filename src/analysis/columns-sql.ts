/**
 * DuckDB side of the derived column list (src/events/columns.ts): SQL types,
 * and which columns a set of SQL texts actually uses (so a report loads only
 * what it reads).
 */
import { eventColumns, type Column, type ColumnKind } from '../events/columns.js';
import { EVENT_NAMES } from '../events/schemas.js';

const SQL_TYPE: Record<ColumnKind, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  'string[]': 'VARCHAR[]',
};

/**
 * `event` is an ENUM of the contract's names: one byte per row instead of a
 * string, so every per-event view filters cheaply. (A line with another name
 * is quarantined, so the value never needs to be kept.)
 */
const EVENT_ENUM = `ENUM(${EVENT_NAMES.map((e) => `'${e}'`).join(', ')})`;

export function sqlType(column: Column): string {
  return column.name === 'event' ? EVENT_ENUM : SQL_TYPE[column.kind];
}

/** Columns always loaded: the envelope that joins and views rely on. */
const ALWAYS = new Set(['event', 'run_id', 'session_id', 'task_id']);

/**
 * The event columns referenced (as whole words) by any of the SQL texts, plus
 * the envelope. Comments, string literals and output aliases (`AS name`) are
 * not references. A column matched by mistake only costs load time (every
 * loaded column is a cell per line); a missed one fails the report loudly.
 */
export function columnsUsedBy(sqlTexts: string[]): Column[] {
  const words = new Set<string>();
  for (const text of sqlTexts) {
    const code = text.replace(/--[^\n]*/g, ' ').replace(/'(?:[^']|'')*'/g, ' ').replace(/\bAS\s+[A-Za-z_][A-Za-z0-9_]*/gi, ' ');
    for (const w of code.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) words.add(w.toLowerCase());
  }
  return eventColumns().filter((c) => ALWAYS.has(c.name) || words.has(c.name));
}

export function allColumns(): Column[] {
  return eventColumns();
}
