/**
 * An event sink that holds a streaming attempt's events until the turn is
 * known to execute. Released: the held events go to the real sink in order
 * and later ones pass straight through. Dropped: they never reach the trace,
 * exactly as in batch mode, where a turn that is not executed (cut, null stop
 * reason, failed attempt) writes no tool events at all.
 */
import type { EventSink, SinkStats } from '../../events/sink.js';
import type { EventInput, FaultlineEvent } from '../../events/schemas.js';

export class HeldSink implements EventSink {
  private held: EventInput[] | null = [];
  private dropped = false;

  constructor(private readonly target: EventSink) {}

  emit(event: EventInput): void {
    if (this.dropped) return;
    if (this.held) this.held.push(event);
    else this.target.emit(event);
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.target.emit(event);
  }

  drop(): void {
    this.dropped = true;
    this.held = [];
  }

  flush(): void {
    this.target.flush();
  }

  close(): void {
    // The session owns the target sink.
  }

  stats(): SinkStats {
    return this.target.stats();
  }

  events(): readonly FaultlineEvent[] {
    return this.target.events();
  }
}
