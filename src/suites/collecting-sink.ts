/** Forwards to the run's sink and keeps one session's events, for its expectations. */
import type { EventInput, EventSink, FaultlineEvent, SinkStats } from '../events/index.js';
import { emitSessionTo, sessionEvent, type SessionIds } from '../events/sink.js';

export class CollectingSink implements EventSink {
  readonly collected: EventInput[] = [];
  constructor(private readonly inner: EventSink) {}
  emit(event: EventInput): void {
    this.collected.push(event);
    this.inner.emit(event);
  }
  /** Keeps its own copy of the event (the caller's `fields` may change later); the inner sink gets the parts. */
  emitSession(name: string, ids: SessionIds, fields: object, body?: string): void {
    this.collected.push(sessionEvent(name, ids, fields));
    emitSessionTo(this.inner, name, ids, fields, body);
  }
  flush(): void {
    this.inner.flush();
  }
  close(): void {
    // The run owns the inner sink; a session closing must not close it.
  }
  stats(): SinkStats {
    return this.inner.stats();
  }
  events(): readonly FaultlineEvent[] {
    return this.inner.events();
  }
}
