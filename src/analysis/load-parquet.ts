/**
 * Loads one Parquet file into the `lines` table (queries and compaction).
 * A file written by `faultline compact` carries its source's line verdicts
 * in its metadata (rows/rows-metadata.ts): its lines read, quarantined lines
 * and imports are those of the source, not its rows, so compacting a
 * compacted file (or querying one) keeps `lines read = used + quarantined`
 * and every reason for a quarantined line.
 */
import type { Column } from '../events/columns.js';
import { CONTRACT_VERSION } from '../events/labels.js';
import { EVENT_NAMES } from '../events/schemas.js';
import { sqlType } from './columns-sql.js';
import { sqlString, type Duck } from './duck.js';
import { InputError, type TraceFile } from './inputs.js';
import type { LoadStats } from './load-types.js';
import { readRowsMetadata } from './rows/rows-metadata.js';

export async function loadParquet(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats): Promise<void> {
  try {
    await loadParquetRows(duck, file, fileId, keep, stats);
  } catch (error) {
    // The magic bytes were right (file-magic.ts), yet DuckDB cannot read it: a damaged file, named, not a crash.
    if (error instanceof Error && /^(IO|Invalid Input|Invalid) Error/.test(error.message)) throw new InputError(`${file.path}: unreadable Parquet file (${error.message.split('\n')[0]})`);
    throw error;
  }
}

async function loadParquetRows(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats): Promise<void> {
  const source = `read_parquet(${sqlString(file.path)}, file_row_number=true)`;
  const present = new Set((await duck.rows(`DESCRIBE SELECT * FROM ${source}`)).map((r) => String(r.column_name)));
  const cols = keep.map((c) => (present.has(c.name) ? `TRY_CAST("${c.name}" AS ${sqlType(c)})` : `NULL::${sqlType(c)}`));
  const v = present.has('v') ? 'v' : 'NULL::BIGINT';
  // Parquet rows were validated when compacted; re-check what would make a report lie.
  const ok = `coalesce(${v} = ${CONTRACT_VERSION} AND event IN (${EVENT_NAMES.map(sqlString).join(', ')}), false)`;
  await duck.exec(`INSERT INTO lines SELECT ${fileId}, file_row_number + 1, ${ok}, ${cols.join(', ')} FROM ${source}`);
  const [count] = await duck.rows(`SELECT count(*) AS rows FROM lines WHERE file_id = ${fileId}`);
  const meta = await readRowsMetadata(duck, file.path);
  // A compacted file's rows are its source's valid lines: the source's books stand for it (as parquet-input.ts reads them for reports).
  if (meta !== null) {
    stats.linesRead += meta.linesRead;
    stats.quarantined.push(...meta.quarantined);
    stats.rescued += meta.rescued;
    if (meta.imports.length > 0) stats.imports = [...(stats.imports ?? []), ...meta.imports];
  } else stats.linesRead += Number(count?.rows ?? 0);
  const bad = await duck.rows(`SELECT file_row_number + 1 AS line_no, event, ${v} AS v FROM ${source} WHERE NOT ${ok} ORDER BY line_no`);
  for (const r of bad) {
    const reason =
      typeof r.v === 'number' && r.v > CONTRACT_VERSION
        ? `contract version v=${r.v} is newer than supported v=${CONTRACT_VERSION}`
        : `unknown event ${JSON.stringify(r.event)}`;
    stats.quarantined.push({ file: file.path, line: Number(r.line_no), kind: 'parquet_row', reason });
  }
}
