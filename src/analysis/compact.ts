/** `faultline compact`: validated events (every contract column) to one Parquet file. */
import { openTraces, type AnalyzeOptions } from './analyze.js';
import { sqlString } from './duck.js';
import type { LoadStats } from './load.js';
import { eventColumns } from '../events/columns.js';

export async function compactTraces(paths: string[], to: string, options: AnalyzeOptions = {}): Promise<LoadStats> {
  const { duck, load } = await openTraces(paths, { ...options, columns: 'all' });
  try {
    const cols = eventColumns().map((c) => `"${c.name}"`).join(', ');
    // Quarantined lines are not written: the Parquet holds only contract-valid events.
    await duck.exec(`COPY (SELECT ${cols} FROM events ORDER BY file_id, line_no) TO ${sqlString(to)} (FORMAT parquet, COMPRESSION zstd)`);
    return load;
  } finally {
    duck.close();
  }
}
