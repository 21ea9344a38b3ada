/** The `lines` table loaded rows go to, shared by the plain load (load.ts) and the row cache (rows/convert-jsonl.ts). */
import type { Column } from '../events/columns.js';
import { sqlType } from './columns-sql.js';
import type { Duck } from './duck.js';

/** A row per line, `valid` false for a quarantined one. */
export async function createLinesTable(duck: Duck, keep: Column[]): Promise<void> {
  const defs = keep.map((c) => `"${c.name}" ${sqlType(c)}`).join(', ');
  await duck.exec(`CREATE OR REPLACE TABLE lines (file_id INTEGER, line_no BIGINT, valid BOOLEAN, ${defs})`);
}

