/** The views every report and ad-hoc query reads: `events` and one per event type. */
import type { Column } from '../events/columns.js';
import { EVENT_NAMES } from '../events/schemas.js';
import { sqlString, type Duck } from './duck.js';

export async function createViews(duck: Duck, columns: Column[]): Promise<void> {
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  await duck.exec(`CREATE OR REPLACE VIEW events AS SELECT file_id, line_no, ${names} FROM lines WHERE valid`);
  for (const event of EVENT_NAMES) {
    const own = columns.filter((c) => c.events.includes(event)).map((c) => `"${c.name}"`);
    await duck.exec(`CREATE OR REPLACE VIEW "${event}" AS SELECT file_id, line_no, ${own.join(', ')} FROM events WHERE event = ${sqlString(event)}`);
  }
}
