/**
 * DuckDB side of the derived column list (src/events/columns.ts): SQL types,
 * extraction from the parsed line map, and which columns a set of SQL texts
 * actually uses (so a report loads only what it reads).
 */
import { eventColumns, type Column, type ColumnKind } from '../events/columns.js';
import { jsonCol, jsonText } from './validity-sql.js';

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

/** Typed value of `column` from its staged JSON text (NULL when absent or not convertible). */
export function extractSql(column: Column): string {
  const x = jsonCol(column.name);
  switch (column.kind) {
    case 'string':
      return jsonText(x);
    case 'integer':
      return `try_cast(try_cast(${x} AS DOUBLE) AS BIGINT)`;
    case 'number':
      return `try_cast(${x} AS DOUBLE)`;
    case 'boolean':
      return `(${x} = 'true')`;
    case 'string[]':
      return `try(json_transform(${x}, '["VARCHAR"]'))`;
  }
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
