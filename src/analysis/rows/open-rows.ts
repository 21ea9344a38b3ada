/**
 * Opens trace files for reports: every input becomes Parquet pieces in one
 * private reader directory (reader-dir.ts) or, for a Parquet input, a
 * branch read in place; the `events` view and the per-event views read them
 * all, and `run_seq` is added up from the pieces' facts. JSONL inputs go
 * through the row cache (jsonl-input.ts) unless it is off.
 *
 * Nothing is loaded into a table: DuckDB reads the pieces on each query,
 * opening only the files of the events a query needs.
 */
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Column } from '../../events/columns.js';
import { sqlType } from '../columns-sql.js';
import { Duck, sqlString } from '../duck.js';
import type { TraceFile } from '../inputs.js';
import { assertFileKind } from '../file-magic.js';
import { copiedRuns, inputRunIds } from '../input-books.js';
import { createLabelTables } from '../label-tables.js';
import type { CacheStats, LoadProgress, LoadStats } from '../load-types.js';

export type { CacheStats } from '../load-types.js';
import { createViews } from '../views.js';
import { readersDir, sweepReaders } from './cache-entry.js';
import { resolveCache, type ResolvedCache, type RowCacheOptions } from './cache-root.js';
import { rowsFingerprint } from './fingerprint.js';
import { isCacheable, jsonlRows, type CacheUse } from './jsonl-input.js';
import { parquetRows } from './parquet-input.js';
import { ReaderDir } from './reader-dir.js';
import { addFactFiles, addFacts, createFactsTable, createRunSeq } from './run-seq.js';

export interface RowsOptions {
  cache?: RowCacheOptions;
  onProgress?: (progress: LoadProgress) => void;
}

/** What the row cache did for each input (diagnostic: it never changes a figure). */

export interface OpenRows {
  duck: Duck;
  load: LoadStats & { cache: CacheStats };
  /** Closes DuckDB and removes the reader directory. */
  close(): void;
}

function readerParent(cache: ResolvedCache | null): { parent: string; cache: ResolvedCache | null } {
  if (cache === null) return { parent: tmpdir(), cache };
  try {
    const parent = readersDir(cache.root);
    mkdirSync(parent, { recursive: true });
    sweepReaders(cache.root);
    return { parent, cache };
  } catch {
    // An unusable cache directory: report without the cache.
    return { parent: tmpdir(), cache: null };
  }
}

export async function openRows(files: TraceFile[], keep: Column[], options: RowsOptions = {}): Promise<OpenRows> {
  // Every file is checked before any is read: a mislabelled one fails fast, naming itself.
  for (const f of files) assertFileKind(f);
  const wanted = resolveCache(options.cache);
  // The cache directory is touched only when some input is big enough to be kept.
  const used = wanted && files.some((f) => isCacheable(f, wanted)) ? wanted : null;
  const { parent, cache } = readerParent(used);
  const reader = new ReaderDir(parent);
  let duck: Duck | null = null;
  try {
    duck = await Duck.open({ storage: 'memory', spillDirectory: reader.work('spill') });
    await duck.exec('SET parquet_metadata_cache = true');
    await createLabelTables(duck);
    await createFactsTable(duck);
    const load = await readInputs(duck, files, keep, reader, cache, options.onProgress);
    const opened = duck;
    return {
      duck,
      load,
      close: () => {
        opened.close();
        reader.remove();
      },
    };
  } catch (error) {
    duck?.close();
    reader.remove();
    throw error;
  }
}

async function readInputs(duck: Duck, files: TraceFile[], keep: Column[], reader: ReaderDir, cache: ResolvedCache | null, onProgress: RowsOptions['onProgress']): Promise<OpenRows['load']> {
  const sizes = files.map((f) => statSync(f.path).size);
  const bytesTotal = sizes.reduce((a, b) => a + b, 0);
  const load: OpenRows['load'] = { files: files.map((f) => f.path), inputs: [], copiedRuns: [], linesRead: 0, eventsUsed: 0, quarantined: [], rescued: 0, rereads: 0, cache: { files: [] } };
  const ctx = { duck, keep, reader, cache, fingerprint: rowsFingerprint(keep) };
  const branches: string[] = [];
  let before = 0;
  for (const [fileId, file] of files.entries()) {
    const size = sizes[fileId] ?? 0;
    const linesBefore = load.linesRead;
    if (file.format === 'parquet') {
      const p = await parquetRows(duck, file, fileId, keep);
      branches.push(p.branch);
      await addFacts(duck, fileId, p.facts);
      load.linesRead += p.lines;
      load.quarantined.push(...p.quarantined);
      load.rescued += p.rescued;
      if (p.imports.length > 0) load.imports = [...(load.imports ?? []), ...p.imports];
      load.cache.files.push({ path: file.path, use: 'parquet', parsedBytes: 0, reusedBytes: 0 });
    } else {
      const onBytes = onProgress && ((n: number) => onProgress({ bytesRead: before + n, bytesTotal }));
      const r = await jsonlRows(ctx, file, fileId, onBytes);
      load.linesRead += r.lines;
      load.quarantined.push(...r.quarantined.map((q) => ({ file: file.path, ...q })));
      load.rescued += r.rescued;
      load.rereads += r.rereads;
      load.cache.files.push({ path: file.path, use: r.cache, parsedBytes: r.parsedBytes, reusedBytes: r.reusedBytes });
    }
    const lines = load.linesRead - linesBefore;
    load.inputs.push({ path: file.path, lines, empty: lines === 0, run_ids: [] });
    before += size;
    onProgress?.({ bytesRead: before, bytesTotal });
  }
  await createViews(duck, keep, `(${eventsSource(keep, reader, branches)})`);
  for (const [fileId, facts] of reader.facts) await addFactFiles(duck, fileId, facts);
  await createRunSeq(duck);
  const [count] = await duck.rows('SELECT count(*) AS n FROM events');
  load.eventsUsed = Number(count?.n ?? 0);
  // Run ids per input from the pieces' facts; a run in several inputs is looked at over its events.
  const books = await inputRunIds(duck, 'facts');
  for (const [fileId, input] of load.inputs.entries()) input.run_ids = books.runIds.get(fileId) ?? [];
  load.copiedRuns = await copiedRuns(duck, load.inputs, keep, 'events');
  return load;
}

/** The union of the pieces (hive style: file_id and event from their paths) and the Parquet inputs' branches. */
function eventsSource(keep: Column[], reader: ReaderDir, branches: string[]): string {
  const parts = [...branches];
  if (reader.hasRows) {
    const cols = keep.map((c) => `"${c.name}"`).join(', ');
    parts.unshift(`SELECT file_id, NULL::BIGINT AS line_no, ${cols} FROM read_parquet(${sqlString(reader.rowsGlob)}, hive_partitioning=true, hive_types={'file_id': 'INTEGER', 'event': 'VARCHAR'})`);
  }
  if (parts.length === 0) {
    const cols = keep.map((c) => `NULL::${c.name === 'event' ? 'VARCHAR' : sqlType(c)} AS "${c.name}"`).join(', ');
    parts.push(`SELECT NULL::INTEGER AS file_id, NULL::BIGINT AS line_no, ${cols} WHERE false`);
  }
  return parts.join('\nUNION ALL\n');
}
