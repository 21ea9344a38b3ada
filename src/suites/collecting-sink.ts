/** Forwards to the run's sink and keeps one session's events, for its expectations. */
import type { EventInput, EventSink, FaultlineEvent, SinkStats } from '../events/index.js';

export class CollectingSink implements EventSink {
  readonly collected: EventInput[] = [];
  constructor(private readonly inner: EventSink) {}
  emit(event: EventInput): void {
    this.collected.push(event);
    this.inner.emit(event);
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
