/**
 * Loads trace files into DuckDB once, into one `lines` table (a row per line,
 * `valid` false for quarantined ones); reports read the views made here.
 * JSONL: load-jsonl.ts; Parquet: load-parquet.ts.
 */
import { statSync } from 'node:fs';
import type { Column } from '../events/columns.js';
import type { Duck } from './duck.js';
import type { TraceFile } from './inputs.js';
import { createLabelTables } from './label-tables.js';
import { loadJsonl } from './load-jsonl.js';
import { loadParquet } from './load-parquet.js';
import { createViews } from './views.js';
import { copiedRuns, inputRunIds } from './input-books.js';
import { assertFileKind } from './file-magic.js';
import { createLinesTable } from './lines-table.js';
import type { LoadOptions, LoadStats } from './load-types.js';

// The load's shapes live in load-types.ts (and the lines table in lines-table.ts) so the loaders need not import this file.
export type { CacheStats, CopiedRun, ImportSummary, InputFile, LoadOptions, LoadProgress, LoadStats, QuarantinedLine } from './load-types.js';
export { createLinesTable } from './lines-table.js';

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
