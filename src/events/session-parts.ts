/**
 * A session's event handed to a sink in parts (name, the session's ids, its fields), or whole where the sink does
 * not take parts. Kept apart from sink.ts so the emitter need not load the event schemas (zod) to use it: building
 * the CLI program loads the emitter and must stay light.
 */
import { sessionEvent, type SessionIds } from './session-ids.js';
import type { EventSink } from './sink.js';

export { sessionEvent };

/** Hands a session's event to `sink`: in parts where it takes them, else whole. */
export function emitSessionTo(sink: EventSink, name: string, ids: SessionIds, fields: object, body?: string): void {
  if (sink.emitSession !== undefined) sink.emitSession(name, ids, fields, body);
  else sink.emit(sessionEvent(name, ids, fields));
}
