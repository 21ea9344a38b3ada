/**
 * Forwards to the run's sink and keeps what a session's checks read of its
 * events: the events of the names they ask about (every event unless told
 * which), and the session's turns and tokens tallied from all of them.
 */
import type { EventInput, EventSink, FaultlineEvent, SinkStats } from '../events/index.js';
import { sessionEvent } from '../events/session-parts.js';
import type { SessionIds } from '../events/sink.js';
import { addFieldsUsage, emptyUsage, type SessionUsage } from './session-usage.js';

export class CollectingSink implements EventSink {
  /** The kept events, in emit order. */
  readonly collected: EventInput[] = [];
  /** What usageOfEvents of every event of the session would give, tallied as they pass (kept or not). */
  readonly usage: SessionUsage = emptyUsage();

  /** `keep`: the event names to keep (a task's event assertions name them); null keeps every event. */
  constructor(
    private readonly inner: EventSink,
    private readonly keep: ReadonlySet<string> | null = null,
  ) {}

  emit(event: EventInput): void {
    addFieldsUsage(this.usage, event.event, event);
    if (this.keep === null || this.keep.has(event.event)) this.collected.push(event);
    this.inner.emit(event);
  }

  /** Keeps its own copy of an event it keeps (the caller's `fields` may change later); the inner sink gets the parts. */
  emitSession(name: string, ids: SessionIds, fields: object, body?: string): void {
    addFieldsUsage(this.usage, name, fields);
    if (this.keep === null || this.keep.has(name)) this.collected.push(sessionEvent(name, ids, fields));
    // Called here, not through emitSessionTo (whose one call site saw every kind of sink).
    if (this.inner.emitSession !== undefined) this.inner.emitSession(name, ids, fields, body);
    else this.inner.emit(sessionEvent(name, ids, fields));
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
