/** The views every report and ad-hoc query reads: `events` and one per event type. */
import type { Column } from '../events/columns.js';
import { EVENT_NAMES } from '../events/schemas.js';
import { sqlString, type Duck } from './duck.js';

/**
 * `source` is a relation with file_id, line_no and the columns, valid rows
 * only: by default the loaded `lines` table; reports read Parquet pieces
 * instead (rows/row-views.ts).
 */
export async function createViews(duck: Duck, columns: Column[], source = 'lines WHERE valid'): Promise<void> {
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  await duck.exec(`CREATE OR REPLACE VIEW events AS SELECT file_id, line_no, ${names} FROM ${source}`);
  for (const event of EVENT_NAMES) {
    const own = columns.filter((c) => c.events.includes(event)).map((c) => `"${c.name}"`);
    await duck.exec(`CREATE OR REPLACE VIEW "${event}" AS SELECT file_id, line_no, ${own.join(', ')} FROM events WHERE event = ${sqlString(event)}`);
  }
}
