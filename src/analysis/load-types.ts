/**
 * The shapes a load produces (stats, quarantined lines, import summaries,
 * input files), apart from the code that loads: the loaders (load.ts,
 * load-jsonl.ts, load-parquet.ts, input-books.ts, rows/) and the report model
 * all name them, and with the types here none of them imports another's
 * code to get a type — the analysis files read top-down, without a circle.
 */
import type { LineProblem } from '../events/parse-line.js';
import type { CacheUse } from './rows/cache-use.js';

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

export interface CacheStats {
  files: { path: string; use: CacheUse | 'parquet'; parsedBytes: number; reusedBytes: number }[];
  /** The report's figures (rows/figures-cache.ts): read back (`hit`), computed and kept (`stored`), or computed only (`off`). */
  figures?: 'hit' | 'stored' | 'off';
}

/** One input file as the analysis read it: its lines, whether it was empty, and the runs it holds. */
export interface InputFile {
  path: string;
  lines: number;
  empty: boolean;
  run_ids: string[];
}
