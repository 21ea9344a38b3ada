/** The views every report and ad-hoc query reads: `events` and one per event type; the session_key macro and the shared rule functions. */
import { readFileSync } from 'node:fs';
import type { Column } from '../events/columns.js';
import { EVENT_NAMES } from '../events/schemas.js';
import { sqlString, type Duck } from './duck.js';
import { registerRuleFunctions } from './rule-functions.js';

/** The one definition of a session (sql/session_key.sql), loaded relative to this module so it works from src and dist. */
export const SESSION_KEY_SQL = readFileSync(new URL('./sql/session_key.sql', import.meta.url), 'utf8');

/**
 * `source` is a relation with file_id, line_no and the columns, valid rows
 * only: by default the loaded `lines` table; reports read Parquet pieces
 * instead (rows/open-rows.ts).
 */
export async function createViews(duck: Duck, columns: Column[], source = 'lines WHERE valid'): Promise<void> {
  await duck.exec(SESSION_KEY_SQL);
  registerRuleFunctions(duck.connection);
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  await duck.exec(`CREATE OR REPLACE VIEW events AS SELECT file_id, line_no, ${names} FROM ${source}`);
  for (const event of EVENT_NAMES) {
    const own = columns.filter((c) => c.events.includes(event)).map((c) => `"${c.name}"`);
    await duck.exec(`CREATE OR REPLACE VIEW "${event}" AS SELECT file_id, line_no, ${own.join(', ')} FROM events WHERE event = ${sqlString(event)}`);
  }
}
