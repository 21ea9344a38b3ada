/**
 * The analysis entry point: resolve inputs, load them once, run every report.
 * Used by `faultline report`, `faultline diff` and `faultline run --report`.
 */
import { statSync } from 'node:fs';
import type { Column } from '../events/columns.js';
import { allColumns, columnsUsedBy } from './columns-sql.js';
import { Duck, type DuckOptions } from './duck.js';
import { resolveInputs, type TraceFile } from './inputs.js';
import { loadTraces, type LoadProgress, type LoadStats } from './load.js';
import type { Analysis } from './report-model.js';
import { allReportSql, runAllReports } from './reports.js';
import { resolveCache, type RowCacheOptions } from './rows/cache-root.js';
import { figuresCode, FiguresCache } from './rows/figures-cache.js';
import { rowsFingerprint } from './rows/fingerprint.js';
import { openRows, type OpenRows } from './rows/open-rows.js';
import { labelTablesSql } from './label-tables.js';
import { SESSION_KEY_SQL } from './views.js';
import { RULE_FUNCTIONS_CODE } from './rule-functions.js';
import { linkedSessionIds, SESSION_VIEW_SQL, sessionViews } from './session-view.js';
import { runSeqSql } from './rows/run-seq.js';

export interface AnalyzeOptions {
  cwd?: string;
  /** Force in-memory or on-disk DuckDB storage; default: disk above 512 MB of input. */
  storage?: DuckOptions['storage'];
  memoryLimit?: string;
  /** Hears bytes read so far over all inputs (as stored on disk), ending with bytesRead = bytesTotal. */
  onProgress?: (progress: LoadProgress) => void;
  /** Resolves the path arguments instead of resolveInputs (src/importers/sources.ts: traces of other formats). */
  sources?: SourceResolver;
  /** The row cache of reports (rows/cache-root.ts); `{ enabled: false }` is `--no-cache`. */
  cache?: RowCacheOptions;
}

/**
 * Inputs resolved by a caller's resolver: the files to load, a hook that puts
 * the load's books back in the inputs' own terms, and a cleanup run once the
 * files are loaded. Analysis knows nothing of other formats beyond this.
 */
export interface ResolvedSources {
  files: TraceFile[];
  finish(load: LoadStats): void;
  cleanup(): void;
}
export type SourceResolver = (paths: string[], cwd: string | undefined) => Promise<ResolvedSources>;

// In memory, a loaded event costs about 0.5 KB of RAM (about 2x its JSONL bytes); past 512 MB of input
// (about 2M events, 1 GB of RAM) a temporary database file keeps the peak RSS flat (under 1 GB at 10M events).
const DISK_THRESHOLD_BYTES = 512 * 1024 * 1024;

export function chooseStorage(files: TraceFile[]): 'memory' | 'disk' {
  // JSONL traces compress about 8x; count a .gz by what it will unpack to.
  const bytes = files.reduce((sum, f) => sum + statSync(f.path).size * (f.path.endsWith('.gz') ? 8 : 1), 0);
  return bytes > DISK_THRESHOLD_BYTES ? 'disk' : 'memory';
}

/** The columns a report reads: those its SQL names, and those the derived tables need. */
export function reportColumns(): Column[] {
  return columnsUsedBy([...allReportSql(), ...runSeqSql(), SESSION_VIEW_SQL]);
}

/** Opens DuckDB and loads the files into a table; `columns: 'all'` (every contract column, with line numbers) for ad-hoc queries and compaction. */
export async function openTraces(
  paths: string[],
  options: AnalyzeOptions & { columns: 'reports' | 'all' },
): Promise<{ duck: Duck; load: LoadStats }> {
  return withSources(paths, options, async (files) => {
    const duck = await Duck.open({ storage: options.storage ?? chooseStorage(files), memoryLimit: options.memoryLimit });
    try {
      const columns = options.columns === 'all' ? allColumns() : reportColumns();
      // Reports never read line_no, so they may skip numbering rows (a faster read); queries and compaction need it.
      const load = await loadTraces(duck, files, columns, { lineNumbers: options.columns === 'all', onProgress: options.onProgress });
      return { duck, load };
    } catch (error) {
      duck.close();
      throw error;
    }
  });
}

/** Opens the files for reports: the columns the reports read, as Parquet pieces through the row cache (rows/open-rows.ts). */
export async function openReportRows(paths: string[], options: AnalyzeOptions = {}): Promise<OpenRows> {
  return withSources(paths, options, (files) => openRows(files, reportColumns(), { cache: options.cache, onProgress: options.onProgress }));
}

/** Resolves the inputs (importing other formats), opens them, and puts the load's books back in the inputs' terms. */
async function withSources<T extends { load: LoadStats }>(paths: string[], options: AnalyzeOptions, open: (files: TraceFile[]) => Promise<T>): Promise<T> {
  const sources = options.sources ? await options.sources(paths, options.cwd) : null;
  try {
    const files = sources ? sources.files : await resolveInputs(paths, options.cwd);
    const opened = await open(files);
    sources?.finish(opened.load);
    return opened;
  } finally {
    sources?.cleanup();
  }
}

export async function analyzeTraces(paths: string[], options: AnalyzeOptions = {}): Promise<Analysis> {
  const keep = reportColumns();
  return withSources(paths, options, async (files) => {
    const figures = FiguresCache.open(files, reportCode(keep), resolveCache(options.cache));
    const kept = figures?.read();
    if (kept) return withFiguresUse(kept, 'hit');
    const { duck, load, close } = await openRows(files, keep, { cache: options.cache, onProgress: options.onProgress });
    try {
      const reports = await runAllReports(duck);
      // The sessions the report's rows name, each viewable on its own (the HTML report links them).
      const sessions = await sessionViews(duck, { ids: linkedSessionIds(reports) });
      const analysis: Analysis = { load, inputs: load.inputs, reports, sessions };
      load.cache.figures = figures?.write(analysis) ? 'stored' : 'off';
      return analysis;
    } finally {
      close();
    }
  });
}

/** Everything report figures are computed by, for the figures cache's key. */
function reportCode(keep: Column[]): string {
  return figuresCode(rowsFingerprint(keep), [SESSION_KEY_SQL, RULE_FUNCTIONS_CODE, ...labelTablesSql(), ...allReportSql(), ...runSeqSql(), SESSION_VIEW_SQL], keep);
}

/** Figures read back: every input counts as reused whole, none parsed. */
function withFiguresUse(analysis: Analysis, use: 'hit'): Analysis {
  const cache = analysis.load.cache;
  if (cache) {
    cache.figures = use;
    for (const f of cache.files) {
      f.reusedBytes += f.parsedBytes;
      f.parsedBytes = 0;
      if (f.use !== 'parquet') f.use = 'unchanged';
    }
  }
  return analysis;
}
