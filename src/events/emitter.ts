/**
 * The emitter facade: the only way the harness (or a user's own harness)
 * writes events. It binds the envelope ids, turns unknown tool names into the
 * `<unknown>` label, and redacts free text, so a caller cannot leak a raw
 * path or message into a label (docs/harness-rules.md#telemetry-discipline).
 */
import { MAX_REQUESTED_TOOL_CHARS, UNKNOWN_TOOL } from './labels.js';
import { redactAndCap } from './redact.js';
import type { EventName, EventOf, EnvelopeKey } from './schemas.js';
import { sessionEvent } from './session-parts.js';
import type { EventSink, SessionIds } from './sink.js';

type RunEventName = 'run_start' | 'run_end';
type SessionEventName = Exclude<EventName, RunEventName>;
type Bound = EnvelopeKey | 'event' | 'run_id' | 'session_id' | 'task_id';

export type SessionFields<N extends SessionEventName> = Omit<EventOf<N>, Bound>;
export type RunFields<N extends RunEventName> = Omit<EventOf<N>, EnvelopeKey | 'event' | 'run_id'>;

export class RunEmitter {
  constructor(
    readonly sink: EventSink,
    readonly runId: string,
  ) {}

  emit<N extends RunEventName>(event: N, fields: RunFields<N>): void {
    this.sink.emit({ event, run_id: this.runId, ...fields } as never);
  }

  /** A session's emitter; `sink` lets a caller tee the session's events (default: the run's sink). */
  session(sessionId: string, taskId: string, sink: EventSink = this.sink): SessionEmitter {
    return new SessionEmitter(sink, this.runId, sessionId, taskId);
  }
}

export class SessionEmitter {
  private idsOnce: SessionIds | null = null;

  constructor(
    readonly sink: EventSink,
    readonly runId: string,
    readonly sessionId: string,
    readonly taskId: string,
  ) {}

  /** The ids every event of the session carries, their JSON made on the first event. */
  get ids(): SessionIds {
    if (this.idsOnce === null) {
      const ids = { run_id: this.runId, session_id: this.sessionId, task_id: this.taskId };
      this.idsOnce = Object.freeze({ ...ids, json: JSON.stringify(ids).slice(1, -1) });
    }
    return this.idsOnce;
  }

  /** `{ event, run_id, session_id, task_id, ...fields }`, in parts to a sink that takes them (sink.ts), else whole. */
  emit<N extends SessionEventName>(event: N, fields: SessionFields<N>): void {
    // Called here, not through emitSessionTo: that one call site saw every kind of sink of every chain.
    const sink = this.sink;
    if (sink.emitSession !== undefined) sink.emitSession(event, this.ids, fields);
    else sink.emit(sessionEvent(event, this.ids, fields));
  }

  /** An expectation result; the detail is free text, so it is redacted and capped here. */
  expectation(id: string, ok: boolean, detail: string): void {
    this.emit('expectation', { id: id.slice(0, 128), ok, detail: redactAndCap(detail, 1024) });
  }
}

/**
 * The label for a tool name: known names pass, anything else becomes
 * `<unknown>` with the requested name cut to 64 chars in a non-label field.
 */
export function toolLabel(name: string, isKnown: (name: string) => boolean): { tool: string; requested_tool: string | null } {
  if (isKnown(name) && /^[A-Za-z0-9_.-]{1,128}$/.test(name)) return { tool: name, requested_tool: null };
  return { tool: UNKNOWN_TOOL, requested_tool: name.slice(0, MAX_REQUESTED_TOOL_CHARS) };
}
