/**
 * DuckDB side of the derived column list (src/events/columns.ts): SQL types,
 * and which columns a set of SQL texts actually uses (so a report loads only
 * what it reads).
 */
import { eventColumns, type Column, type ColumnKind } from '../events/columns.js';

const SQL_TYPE: Record<ColumnKind, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  'string[]': 'VARCHAR[]',
};

export function sqlType(column: Column): string {
  return SQL_TYPE[column.kind];
}

/** Columns always loaded: the envelope that joins and views rely on. */
const ALWAYS = new Set(['event', 'v', 'run_id', 'session_id', 'task_id']);

/**
 * The event columns referenced (as whole words) by any of the SQL texts, plus
 * the envelope. A column mentioned by mistake only costs a little load time.
 */
export function columnsUsedBy(sqlTexts: string[]): Column[] {
  const words = new Set<string>();
  for (const text of sqlTexts) for (const w of text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) words.add(w.toLowerCase());
  return eventColumns().filter((c) => ALWAYS.has(c.name) || words.has(c.name));
}

export function allColumns(): Column[] {
  return eventColumns();
}
