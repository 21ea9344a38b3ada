/**
 * What each input file held: the run ids of its valid events, and the runs
 * read twice from different files; from the loaded `lines` table, or for
 * reports over Parquet pieces (rows/open-rows.ts) from the pieces' per-run
 * facts and the `events` view. Two files
 * share a run legitimately when a run's trace was split (log rotation), so a
 * copy is a run whose same seq, i.e. the same event of its one writer, is in
 * more than one file.
 */
import type { Column } from '../events/columns.js';
import { sqlString, type Duck } from './duck.js';
import type { CopiedRun, InputFile } from './load-types.js';

const RUN_IDS_SQL = {
  /** One pass over the loaded `lines` table. */
  lines: `SELECT file_id, count(*) AS used, list(DISTINCT run_id) AS run_ids FROM lines WHERE valid GROUP BY file_id`,
  /** The pieces' per-run facts (rows/run-seq.ts), a few rows per piece: no pass over the events. */
  facts: `SELECT file_id, sum(events) AS used, list(DISTINCT run_id) AS run_ids FROM run_seq_facts GROUP BY file_id`,
};

/** Valid events in all, and the sorted distinct run ids per file_id. */
export async function inputRunIds(duck: Duck, from: keyof typeof RUN_IDS_SQL = 'lines'): Promise<{ eventsUsed: number; runIds: Map<number, string[]> }> {
  const rows = await duck.rows(RUN_IDS_SQL[from]);
  const runIds = new Map<number, string[]>();
  let eventsUsed = 0;
  for (const r of rows) {
    eventsUsed += Number(r.used ?? 0);
    const ids = Array.isArray(r.run_ids) ? r.run_ids.filter((id): id is string => typeof id === 'string') : [];
    runIds.set(Number(r.file_id), ids.sort());
  }
  return { eventsUsed, runIds };
}

/**
 * Runs found in several files with the same seqs; only runs that span files are looked at, so the usual case costs nothing.
 * `events`: a relation of the valid events with file_id (the `lines` table's, or the `events` view over Parquet pieces).
 */
export async function copiedRuns(duck: Duck, inputs: InputFile[], keep: Column[], events = '(SELECT * FROM lines WHERE valid)'): Promise<CopiedRun[]> {
  if (!keep.some((c) => c.name === 'seq')) return [];
  const filesOf = new Map<string, number>();
  for (const input of inputs) for (const id of input.run_ids) filesOf.set(id, (filesOf.get(id) ?? 0) + 1);
  const spanning = [...filesOf].filter(([, n]) => n > 1).map(([id]) => id);
  if (spanning.length === 0) return [];
  const rows = await duck.rows(
    `SELECT run_id, list(DISTINCT f ORDER BY f) AS file_ids FROM (
       SELECT run_id, unnest(file_ids) AS f FROM (
         SELECT run_id, list(DISTINCT file_id) AS file_ids FROM ${events}
         WHERE run_id IN (${spanning.map(sqlString).join(', ')})
         GROUP BY run_id, seq HAVING count(DISTINCT file_id) > 1))
     GROUP BY run_id ORDER BY run_id`,
  );
  return rows.map((r) => ({
    run_id: String(r.run_id),
    files: (Array.isArray(r.file_ids) ? r.file_ids : []).map((id) => inputs[Number(id)]?.path ?? String(id)),
  }));
}
