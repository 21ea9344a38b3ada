/**
 * A Parquet input for a report (usually written by `faultline compact`),
 * read where it lies: no copy, its rows are one branch of the `events` view.
 * Its line accounting and per-run seq facts come from the metadata compact
 * wrote (rows-metadata.ts), so a report over it says how many lines of the
 * source were read and quarantined, and why. Rows are checked again for what
 * would make a report lie (contract version, event name), reading only the
 * row groups whose statistics do not vouch for them (parquet-proof.ts); a
 * row that fails is quarantined as `parquet_row`. A Parquet file from elsewhere has no
 * metadata: its rows are its lines and its facts are counted here.
 */
import type { Column } from '../../events/columns.js';
import { CONTRACT_VERSION } from '../../events/labels.js';
import { EVENT_NAMES } from '../../events/schemas.js';
import { sqlType } from '../columns-sql.js';
import { sqlString, type Duck } from '../duck.js';
import { InputError, type TraceFile } from '../inputs.js';
import type { ImportSummary, QuarantinedLine } from '../load-types.js';
import { rowsToCheck } from './parquet-proof.js';
import { readRowsMetadata } from './rows-metadata.js';
import { factsOf, type RunFact } from './run-seq.js';

export interface ParquetRows {
  /** SELECT file_id, line_no, <columns> over the file's valid rows. */
  branch: string;
  lines: number;
  rows: number;
  quarantined: QuarantinedLine[];
  rescued: number;
  facts: RunFact[];
  imports: ImportSummary[];
}

export async function parquetRows(duck: Duck, file: TraceFile, fileId: number, keep: Column[]): Promise<ParquetRows> {
  try {
    return await readParquetRows(duck, file, fileId, keep);
  } catch (error) {
    // The magic bytes were right (file-magic.ts), yet DuckDB cannot read it: a damaged file, named, not a crash (as load-parquet.ts).
    if (error instanceof Error && /^(IO|Invalid Input|Invalid) Error/.test(error.message)) throw new InputError(`${file.path}: unreadable Parquet file (${error.message.split('\n')[0]})`);
    throw error;
  }
}

async function readParquetRows(duck: Duck, file: TraceFile, fileId: number, keep: Column[]): Promise<ParquetRows> {
  const source = `read_parquet(${sqlString(file.path)})`;
  const types = new Map((await duck.rows(`DESCRIBE SELECT * FROM ${source}`)).map((r) => [String(r.column_name), String(r.column_type)]));
  const cols = keep.map((c) => {
    // event stays VARCHAR so a per-event view's filter reaches the row-group statistics.
    const want = c.name === 'event' ? 'VARCHAR' : sqlType(c);
    const have = types.get(c.name);
    if (have === undefined) return `NULL::${want} AS "${c.name}"`;
    return have === want ? `"${c.name}"` : `TRY_CAST("${c.name}" AS ${want}) AS "${c.name}"`;
  });
  const v = types.has('v') ? 'v' : 'NULL::BIGINT';
  const ok = `coalesce(${v} = ${CONTRACT_VERSION} AND event IN (${EVENT_NAMES.map(sqlString).join(', ')}), false)`;
  const [count] = await duck.rows(`SELECT count(*) AS n FROM ${source}`);
  // Only the rows the file's statistics do not vouch for are read to be checked (parquet-proof.ts).
  // Judged once per distinct (v, event) pair: a hash grouping is far cheaper than the IN list on every row.
  const ranges = (await rowsToCheck(duck, file.path)).map((where) => `SELECT ${v} AS v, event FROM read_parquet(${sqlString(file.path)}, file_row_number=true) WHERE ${where}`);
  const [bad] = ranges.length === 0 ? [] : await duck.rows(`SELECT coalesce(sum(n) FILTER (WHERE NOT ${ok}), 0) AS n FROM (SELECT v, event, count(*) AS n FROM (${ranges.join(' UNION ALL ')}) GROUP BY ALL)`);
  const total = Number(count?.n ?? 0);
  const badRows = Number(bad?.n ?? 0);
  const quarantined: QuarantinedLine[] = [];
  if (badRows > 0) {
    const bad = await duck.rows(`SELECT file_row_number + 1 AS line_no, event, ${v} AS v FROM read_parquet(${sqlString(file.path)}, file_row_number=true) WHERE NOT ${ok} ORDER BY line_no`);
    for (const r of bad) {
      const reason =
        typeof r.v === 'number' && r.v > CONTRACT_VERSION ? `contract version v=${r.v} is newer than supported v=${CONTRACT_VERSION}` : `unknown event ${JSON.stringify(r.event)}`;
      quarantined.push({ file: file.path, line: Number(r.line_no), kind: 'parquet_row', reason });
    }
  }
  const branch = `SELECT ${fileId}::INTEGER AS file_id, NULL::BIGINT AS line_no, ${cols.join(', ')} FROM ${source}${badRows > 0 ? ` WHERE ${ok}` : ''}`;
  const meta = await readRowsMetadata(duck, file.path);
  const rows = total - badRows;
  if (meta === null || meta.facts === null || badRows > 0) {
    const facts = await factsOf(duck, `(${branch})`);
    return { branch, lines: meta?.linesRead ?? total, rows, quarantined: [...(meta?.quarantined ?? []), ...quarantined], rescued: meta?.rescued ?? 0, facts, imports: meta?.imports ?? [] };
  }
  return { branch, lines: meta.linesRead, rows, quarantined: meta.quarantined, rescued: meta.rescued, facts: meta.facts, imports: meta.imports };
}
