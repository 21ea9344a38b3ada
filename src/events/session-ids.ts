/** A session's ids, made once per session, and its events built whole from them (no schemas loaded: see session-parts.ts). */
import type { EventInput } from './schemas.js';

/** The ids a session's events carry, and their JSON (`"run_id":…,"session_id":…,"task_id":…`), made once per session. */
export interface SessionIds {
  readonly run_id: string;
  readonly session_id: string;
  readonly task_id: string;
  readonly json: string;
}

/** A session's event as one object, `{ event, run_id, session_id, task_id, ...fields }` (a copy of `fields`). */
export function sessionEvent(name: string, ids: SessionIds, fields: object): EventInput {
  return { event: name, run_id: ids.run_id, session_id: ids.session_id, task_id: ids.task_id, ...fields } as EventInput;
}
