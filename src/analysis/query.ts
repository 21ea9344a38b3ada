/**
 * `faultline query`: ad-hoc SQL over the same views the reports read (every
 * contract column loaded). It runs exactly one read-only statement: DuckDB
 * itself splits the text into statements and names each one's type, so
 * several statements, or one that writes, attaches, loads, exports or sets
 * anything, is refused before it runs; and the database is locked down
 * (no file, network or extension access) so even a SELECT reads only the
 * loaded traces.
 */
import { openTraces, type AnalyzeOptions } from './analyze.js';
import { sqlString, type Duck, type PreparedStatement, type Row } from './duck.js';
import type { LoadStats } from './load.js';

export interface QueryResult {
  columns: string[];
  rows: Row[];
  load: LoadStats;
}

/** A query the user must fix: several statements, a writing one, an unknown table, a syntax error. */
export class QueryError extends Error {
  readonly code = 'QUERY_ERROR';
}

/** DESCRIBE, SHOW, SUMMARIZE, PIVOT, FROM-first and VALUES are SELECTs to DuckDB. */
const READ_ONLY = new Set(['SELECT']);

/** What DuckDB says first (its messages put the LINE and caret after a blank line). */
const firstLine = (message: string) => message.replace(/^Failed to extract statements: /, '').split('\n')[0] ?? message;

/** The views and lookup tables a query may read, for an unknown-table error. */
async function available(duck: Duck): Promise<string> {
  const views = await duck.rows(`SELECT view_name AS name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' ORDER BY name = 'events' DESC, name`);
  const tables = await duck.rows(`SELECT table_name AS name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary AND NOT internal AND table_name <> 'lines' ORDER BY name`);
  return `available views: ${views.map((v) => String(v.name)).join(', ')}; lookup tables: ${tables.map((t) => String(t.name)).join(', ')}`;
}

/**
 * Whether DuckDB's parser reads the text as a SELECT, without binding it:
 * json_serialize_sql serializes only SELECT statements. Used when binding
 * itself was refused (a COPY to a file fails on file access before its type
 * can be asked), to say which rule the statement broke.
 */
async function parsesAsSelect(duck: Duck, sql: string): Promise<boolean> {
  const [row] = await duck.rows(`SELECT json_extract_string(json_serialize_sql(${sqlString(sql)}), '$.error') AS error`);
  return row?.error === 'false';
}

/** The statement's first word, for a message only (the decision is DuckDB's). */
const keyword = (sql: string) => /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'non-SELECT';

const notReadOnly = (type: string) => new QueryError(`query runs one read-only SELECT (WITH, FROM, DESCRIBE and SUMMARIZE too); this is a ${type} statement`);

/** DuckDB's error as a QueryError, with the available views when a table is unknown. */
async function explain(duck: Duck, error: unknown): Promise<QueryError | unknown> {
  if (!(error instanceof Error)) return error;
  const unknown = /^Catalog Error: Table with name (.+?) does not exist/.exec(error.message);
  if (unknown) return new QueryError(`unknown table or view ${unknown[1]}; ${await available(duck)}`);
  if (/^Permission Error/.test(error.message)) return new QueryError(`query reads only the loaded traces (no files, network or extensions): ${firstLine(error.message)}`);
  if (/^(Failed to extract statements: )?(Parser|Binder|Catalog|Conversion|Invalid Input|Not implemented) Error/.test(error.message)) return new QueryError(error.message.replace(/^Failed to extract statements: /, ''));
  return error;
}

/** The one statement of `sql`, prepared on a locked-down database and known to be read-only; QueryError otherwise. */
async function prepareReadOnly(duck: Duck, sql: string): Promise<PreparedStatement> {
  const statements = await duck.statements(sql).catch(async (error: unknown) => {
    if (error instanceof Error && error.message === 'Error in native callback') throw new QueryError('no SQL statement given');
    throw await explain(duck, error);
  });
  if (statements.count !== 1) throw new QueryError(`query runs exactly one statement; got ${statements.count} statements (run each on its own)`);
  const statement = await statements.prepare(0).catch(async (error: unknown) => {
    if (error instanceof Error && /^Permission Error/.test(error.message) && !(await parsesAsSelect(duck, sql))) throw notReadOnly(keyword(sql));
    throw await explain(duck, error);
  });
  if (READ_ONLY.has(statement.type)) return statement;
  statement.close();
  throw notReadOnly(statement.type);
}

export async function queryTraces(sql: string, paths: string[], options: AnalyzeOptions = {}): Promise<QueryResult> {
  const { duck, load } = await openTraces(paths, { ...options, columns: 'all' });
  try {
    await duck.lockDown();
    const statement = await prepareReadOnly(duck, sql);
    try {
      const result = await statement.run().catch(async (error: unknown) => {
        throw await explain(duck, error);
      });
      return { ...result, load };
    } finally {
      statement.close();
    }
  } finally {
    duck.close();
  }
}
