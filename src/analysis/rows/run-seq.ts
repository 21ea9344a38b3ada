/**
 * Per-run seq facts (sql/derived/run_seq_facts.sql) of each piece of a
 * trace, and the `run_seq` table the runs report reads, added up from them
 * (sql/derived/run_seq.sql).
 */
import { readFileSync } from 'node:fs';
import { sqlString, type Duck } from '../duck.js';

function derivedSql(name: string): string {
  return readFileSync(new URL(`../sql/derived/${name}.sql`, import.meta.url), 'utf8');
}

/** The derived SQL, for the column list (a column it reads must be loaded). */
export function runSeqSql(): string[] {
  return [derivedSql('run_seq_facts'), derivedSql('run_seq')];
}

export const FACTS_COLUMNS = `run_id VARCHAR, events BIGINT, min_seq BIGINT, max_seq BIGINT, distinct_seq BIGINT, first_ts BIGINT, last_ts BIGINT`;

/** One fact per run: [run_id, events, min_seq, max_seq, distinct_seq, first_ts, last_ts] (seq and ts are safe integers by contract; ts may be null). */
export type RunFact = [string | null, number, number | null, number | null, number, number | null, number | null];

/** Writes the facts of the rows of `relation` (a FROM clause) to a Parquet file. */
export async function writeFacts(duck: Duck, relation: string, to: string): Promise<void> {
  await duck.exec(`CREATE OR REPLACE TEMP VIEW piece_rows AS SELECT * FROM ${relation}`);
  await duck.exec(`COPY (${derivedSql('run_seq_facts')}) TO ${sqlString(to)} (FORMAT parquet)`);
}

/** The facts of the rows of `relation`, as plain values (kept in a compacted file's metadata). */
export async function factsOf(duck: Duck, relation: string): Promise<RunFact[]> {
  await duck.exec(`CREATE OR REPLACE TEMP VIEW piece_rows AS SELECT * FROM ${relation}`);
  const rows = await duck.rows(derivedSql('run_seq_facts'));
  return rows.map((r) => [r.run_id as string | null, Number(r.events), r.min_seq as number | null, r.max_seq as number | null, Number(r.distinct_seq), r.first_ts as number | null, r.last_ts as number | null]);
}

/** The facts of every piece of a report's inputs, each with the input (file_id) it belongs to: input-books.ts reads the run ids per input from it. */
export async function createFactsTable(duck: Duck): Promise<void> {
  await duck.exec(`CREATE OR REPLACE TEMP TABLE run_seq_facts (file_id INTEGER, ${FACTS_COLUMNS})`);
}

export async function addFactFiles(duck: Duck, fileId: number, files: string[]): Promise<void> {
  if (files.length === 0) return;
  await duck.exec(
    `INSERT INTO run_seq_facts SELECT ${fileId}::INTEGER, run_id, events, min_seq, max_seq, distinct_seq, first_ts, last_ts FROM read_parquet([${files.map(sqlString).join(', ')}])`,
  );
}

export async function addFacts(duck: Duck, fileId: number, facts: RunFact[]): Promise<void> {
  for (let i = 0; i < facts.length; i += 1000) {
    const values = facts.slice(i, i + 1000).map((f) => `(${[fileId, ...f].map((v) => (v === null ? 'NULL' : typeof v === 'string' ? sqlString(v) : String(v))).join(', ')})`);
    await duck.exec(`INSERT INTO run_seq_facts VALUES ${values.join(', ')}`);
  }
}

/** After every piece's facts are in and the `events` view exists. */
export async function createRunSeq(duck: Duck): Promise<void> {
  await duck.exec(derivedSql('run_seq'));
}
