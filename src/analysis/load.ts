/**
 * Loads trace files into DuckDB once, into one `lines` table (a row per line,
 * `valid` false for quarantined ones); reports read the views made here.
 * JSONL: load-jsonl.ts; Parquet: load-parquet.ts.
 */
import { statSync } from 'node:fs';
import type { Column } from '../events/columns.js';
import type { LineProblem } from '../events/parse-line.js';
import { sqlType } from './columns-sql.js';
import type { Duck } from './duck.js';
import type { TraceFile } from './inputs.js';
import { createLabelTables } from './label-tables.js';
import { loadJsonl } from './load-jsonl.js';
import { loadParquet } from './load-parquet.js';
import type { CacheStats } from './rows/open-rows.js';
import { createViews } from './views.js';
import type { InputFile } from './report-model.js';
import { copiedRuns, inputRunIds } from './input-books.js';
import { assertFileKind } from './file-magic.js';

export interface QuarantinedLine {
  file: string;
  line: number;
  /** `import`: a line of another format (src/importers/) that could not be read or mapped. */
  kind: LineProblem | 'parquet_row' | 'import';
  reason: string;
}

/**
 * One input file of another format, imported into contract events before
 * loading (src/importers/). Its records (lines, spans, results, items: `unit`)
 * reconcile as records = used + skipped + quarantined; `skipped` counts, by
 * reason, records the source has but the contract has no event for.
 */
export interface ImportSummary {
  file: string;
  format: string;
  unit: string;
  records: number;
  used: number;
  skipped: Record<string, number>;
  quarantined: number;
  /** Contract events written from this file. */
  events: number;
  /** What this format cannot record, so the report says "not available in source" instead of guessing. */
  notes: string[];
  /** The run ids of the events written from this file, sorted. */
  run_ids: string[];
  /** What the importer warns of, with how many records each concerns (absent: none). */
  warnings?: Record<string, number>;
  /** Used records by kind (as the importer names them): how many, and the events they became. */
  kinds?: Record<string, { records: number; events: Record<string, number> }>;
}

/** One run whose events are read from more than one file with the same seqs: two copies of one run, counted twice. */
export interface CopiedRun {
  run_id: string;
  files: string[];
}

export interface LoadStats {
  files: string[];
  /** Every input file, in load order (imported sources in place of their temporary file). */
  inputs: InputFile[];
  /** Runs read twice from different files (a copy of a trace next to the trace itself). */
  copiedRuns: CopiedRun[];
  linesRead: number;
  eventsUsed: number;
  quarantined: QuarantinedLine[];
  /** Accepted lines the fast check could not prove, so their rows were rebuilt from parseLine's event. Diagnostic only. */
  rescued: number;
  /** Files read a second time, numbered, because the scan found lines an unnumbered read cannot set aside. Diagnostic only. */
  rereads: number;
  /**
   * Inputs of other formats, imported before loading. Their source lines
   * count in `linesRead` and their bad records in `quarantined`; the events
   * written from them count in `eventsUsed`.
   */
  imports?: ImportSummary[];
  /** What the row cache did, per input (reports only). Diagnostic: it never changes a figure. */
  cache?: CacheStats;
}

export interface LoadProgress {
  bytesRead: number;
  bytesTotal: number;
}

export interface LoadOptions {
  /** Rows carry physical line numbers (`line_no`); without it `line_no` may be NULL, which reports never read. */
  lineNumbers: boolean;
  onProgress?: (progress: LoadProgress) => void;
}

/** The table loaded rows go to: a row per line, `valid` false for a quarantined one. */
export async function createLinesTable(duck: Duck, keep: Column[]): Promise<void> {
  const defs = keep.map((c) => `"${c.name}" ${sqlType(c)}`).join(', ');
  await duck.exec(`CREATE OR REPLACE TABLE lines (file_id INTEGER, line_no BIGINT, valid BOOLEAN, ${defs})`);
}

export async function loadTraces(duck: Duck, files: TraceFile[], keep: Column[], options: LoadOptions): Promise<LoadStats> {
  const { onProgress } = options;
  // Every file is checked before any is loaded: a mislabelled one fails fast, naming itself.
  for (const f of files) assertFileKind(f);
  const sizes = files.map((f) => statSync(f.path).size);
  const bytesTotal = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  await createLabelTables(duck);
  await createLinesTable(duck, keep);
  const stats: LoadStats = { files: files.map((f) => f.path), inputs: [], copiedRuns: [], linesRead: 0, eventsUsed: 0, quarantined: [], rescued: 0, rereads: 0 };
  for (const [fileId, file] of files.entries()) {
    const onBytes = onProgress && ((bytesRead: number) => onProgress({ bytesRead: before + bytesRead, bytesTotal }));
    const linesBefore = stats.linesRead;
    if (file.format === 'parquet') await loadParquet(duck, file, fileId, keep, stats);
    else await loadJsonl(duck, file, fileId, keep, stats, { lineNumbers: options.lineNumbers, onBytes });
    const lines = stats.linesRead - linesBefore;
    stats.inputs.push({ path: file.path, lines, empty: lines === 0, run_ids: [] });
    before += sizes[fileId] ?? 0;
    onProgress?.({ bytesRead: before, bytesTotal });
  }
  const books = await inputRunIds(duck);
  stats.eventsUsed = books.eventsUsed;
  for (const [fileId, input] of stats.inputs.entries()) input.run_ids = books.runIds.get(fileId) ?? [];
  stats.copiedRuns = await copiedRuns(duck, stats.inputs, keep);
  await createViews(duck, keep);
  return stats;
}
