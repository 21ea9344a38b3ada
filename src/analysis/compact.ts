/**
 * `faultline compact`: validated events (every contract column) to one
 * Parquet file, sorted by event so a report's per-event views read only
 * their row groups, with the contract verdicts in its metadata
 * (rows/rows-metadata.ts): lines read, every quarantined line and its
 * reason, and the per-run seq facts a report would otherwise count again.
 */
import { openTraces, type AnalyzeOptions } from './analyze.js';
import { sqlString } from './duck.js';
import type { LoadStats } from './load.js';
import { eventColumns } from '../events/columns.js';
import { kvMetadataOption, rowsMetadata } from './rows/rows-metadata.js';
import { factsOf } from './rows/run-seq.js';

export async function compactTraces(paths: string[], to: string, options: AnalyzeOptions = {}): Promise<LoadStats> {
  const { duck, load } = await openTraces(paths, { ...options, columns: 'all' });
  try {
    // event is an ENUM in the table; written as one its row-group statistics would span the whole enum, not the rows.
    const cols = eventColumns().map((c) => (c.name === 'event' ? `event::VARCHAR AS event` : `"${c.name}"`)).join(', ');
    const meta = rowsMetadata(load, await factsOf(duck, 'events'));
    // Quarantined lines are not written: the Parquet holds only contract-valid events, in file order within each event.
    await duck.exec(`COPY (SELECT ${cols} FROM events ORDER BY event, file_id, line_no) TO ${sqlString(to)} (FORMAT parquet, COMPRESSION zstd, ${kvMetadataOption(meta)})`);
    return load;
  } finally {
    duck.close();
  }
}
