/**
 * `faultline compact`: validated events (every contract column) to one
 * Parquet file, sorted by event so a report's per-event views read only
 * their row groups, with the contract verdicts in its metadata
 * (rows/rows-metadata.ts): lines read, every quarantined line and its
 * reason, and the per-run seq facts a report would otherwise count again.
 *
 * The file is written beside its destination under a temporary name and
 * renamed into place: compacting onto one of its own inputs (or being
 * killed mid-write) never leaves a half-written or truncated file.
 *
 * DuckDB is held to a memory limit (COMPACT_MEMORY_LIMIT by default, or
 * `--memory-limit`): the sort of every event spills to its temporary
 * directory instead of growing past it (10M events peaked at 7.8 GB RSS
 * without one).
 */
import { randomBytes } from 'node:crypto';
import { rmSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openTraces, type AnalyzeOptions } from './analyze.js';
import { sqlString } from './duck.js';
import { InputError } from './inputs.js';
import type { LoadStats } from './load.js';
import { eventColumns } from '../events/columns.js';
import { kvMetadataOption, rowsMetadata } from './rows/rows-metadata.js';
import { factsOf } from './rows/run-seq.js';

/** Well under a laptop's memory; the sort spills past it. */
export const COMPACT_MEMORY_LIMIT = '1GB';

/** A usage error (InputError) when the destination's directory does not exist or is not a directory. */
export function assertDestinationDir(to: string): void {
  const dir = dirname(to);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new InputError(`--to ${to}: the directory ${dir} does not exist (create it first)`);
  }
  if (!isDir) throw new InputError(`--to ${to}: ${dir} is not a directory`);
}

/** DuckDB's out-of-memory error under the limit the user chose: their input to change (exit 2), said as such. */
function outOfMemory(error: unknown, limit: string): unknown {
  if (error instanceof Error && /^Out of Memory Error/.test(error.message)) {
    return new InputError(`compact ran out of memory within --memory-limit ${limit} (${error.message.split('\n')[0]}); raise --memory-limit`);
  }
  return error;
}

export async function compactTraces(paths: string[], to: string, options: AnalyzeOptions = {}): Promise<LoadStats> {
  assertDestinationDir(to);
  // On disk whatever the size: a database in memory cannot spill its tables, so a memory limit would fail it instead.
  const memoryLimit = options.memoryLimit ?? COMPACT_MEMORY_LIMIT;
  const { duck, load } = await openTraces(paths, { ...options, storage: options.storage ?? 'disk', memoryLimit, columns: 'all' }).catch((error: unknown) => {
    throw outOfMemory(error, memoryLimit);
  });
  const tmp = join(dirname(to), `.${basename(to)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // event is an ENUM in the table; written as one its row-group statistics would span the whole enum, not the rows.
    const cols = eventColumns().map((c) => (c.name === 'event' ? `event::VARCHAR AS event` : `"${c.name}"`)).join(', ');
    const meta = rowsMetadata(load, await factsOf(duck, 'events'));
    // Quarantined lines are not written: the Parquet holds only contract-valid events, in file order within each event.
    await duck.exec(`COPY (SELECT ${cols} FROM events ORDER BY event, file_id, line_no) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd, ${kvMetadataOption(meta)})`);
    renameSync(tmp, to);
    return load;
  } catch (error) {
    throw outOfMemory(error, memoryLimit);
  } finally {
    rmSync(tmp, { force: true });
    duck.close();
  }
}
