/**
 * The JSONL sink. Rules (docs/event-contract.md, docs/harness-rules.md#telemetry-discipline):
 * - never throws into its caller: a failing disk is counted and reported once;
 * - a line is never split across two writes, so a crash leaves at most one torn
 *   last line (lines are buffered and flushed as whole lines with one write);
 * - `seq` is a per-writer counter so readers can detect loss and order;
 * - flushes on close, when the buffer fills, on a short timer and on SIGINT/SIGTERM.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CONTRACT_VERSION } from './labels.js';
import { AnyEvent, type EventInput, type FaultlineEvent } from './schemas.js';
import { sessionEvent, type SessionIds } from './session-ids.js';
import { installSignalFlush } from './signal-flush.js';

export type { SessionIds } from './session-ids.js';

export interface SinkOptions {
  /** Validate every event against the contract before writing (invalid ones are dropped and counted). */
  validate?: boolean;
  /** Epoch-ms clock; injectable for deterministic tests. */
  now?: () => number;
  /** Called once, on the first write failure. */
  onError?: (error: unknown) => void;
  /** Flush when this many bytes are buffered. */
  bufferBytes?: number;
  /** Flush this long after the first buffered line. */
  flushIntervalMs?: number;
  /** Also keep every written event in memory (tests, expectations). */
  keepInMemory?: boolean;
  /** Start the file empty instead of appending to it (default: append). */
  truncate?: boolean;
}

export interface SinkStats {
  written: number;
  /** Lines lost to write errors. */
  failedWrites: number;
  /** Events rejected by validation (a harness bug: reported, never thrown). */
  invalid: number;
  firstError: string | null;
}

export interface EventSink {
  emit(event: EventInput): void;
  /**
   * Optional: one of a session's events, `{ event: name, ...ids, ...fields }` as emit would get it, handed over
   * in parts so that a sink writing lines serializes only `fields` (the ids' JSON is made once per session) and
   * nothing copies the event on the way. A sink without it gets emit() of the whole event (SessionEmitter).
   * `body` is JSON.stringify(fields) when a sink before it already made it (each event is serialized once).
   */
  emitSession?(name: string, ids: SessionIds, fields: object, body?: string): void;
  flush(): void;
  close(): void;
  stats(): SinkStats;
  /** Events kept in memory when `keepInMemory` is set, else empty. */
  events(): readonly FaultlineEvent[];
}

export class JsonlSink implements EventSink {
  private fd: number | null = null;
  private seq = 0;
  /** The buffered lines, appended to one string: no string per line nor an array of them to join at the flush. */
  private buffer = '';
  private bufferedLines = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly kept: FaultlineEvent[] = [];
  private readonly counters: SinkStats = { written: 0, failedWrites: 0, invalid: 0, firstError: null };
  private readonly now: () => number;
  private readonly uninstall: () => void;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly options: SinkOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, options.truncate ? 'w' : 'a');
    } catch (error) {
      this.fail(error, 0);
    }
    this.uninstall = installSignalFlush(() => this.flush());
  }

  emit(input: EventInput): void {
    try {
      if (this.closed) return;
      if (!this.options.validate && !this.options.keepInMemory) {
        // The usual case (faultline run): the line straight from the input, without a copy of it per event.
        this.emitSerialized(this.now(), JSON.stringify(input));
        return;
      }
      const event = { v: CONTRACT_VERSION, ts: this.now(), seq: ++this.seq, ...input } as FaultlineEvent;
      if (this.options.validate && !AnyEvent.safeParse(event).success) {
        this.counters.invalid++;
        this.note(`invalid event dropped: ${event.event}`);
        return;
      }
      if (this.options.keepInMemory) this.kept.push(event);
      this.push(JSON.stringify(event) + '\n');
    } catch (error) {
      // Telemetry is a side channel: nothing here may reach the harness.
      this.fail(error, 1);
    }
  }

  emitSession(name: string, ids: SessionIds, fields: object, body = JSON.stringify(fields)): void {
    if (this.options.validate || this.options.keepInMemory) return this.emit(sessionEvent(name, ids, fields));
    try {
      if (this.closed) return;
      // The line emit would write for { event, ...ids, ...fields }: the same keys in the same order, appended in parts.
      const head = `{"v":${CONTRACT_VERSION},"ts":${this.now()},"seq":${++this.seq},"event":${JSON.stringify(name)},`;
      this.buffer = body.length > 2 ? this.buffer + head + ids.json + ',' + body.slice(1) + '\n' : this.buffer + head + ids.json + '}\n';
      this.added();
    } catch (error) {
      this.fail(error, 1);
    }
  }

  /**
   * An event serialized elsewhere (a worker thread of `faultline run
   * --workers`): `body` is JSON.stringify of its input (no envelope) and `ts`
   * when it was emitted. This sink numbers it like any other, so the file
   * keeps one seq order; the line is what emit would have written.
   */
  emitSerialized(ts: number, body: string): void {
    try {
      if (this.closed) return;
      this.push(`{"v":${CONTRACT_VERSION},"ts":${ts},"seq":${++this.seq},${body.slice(1)}\n`);
    } catch (error) {
      this.fail(error, 1);
    }
  }

  /** Buffers one line; a full buffer is written now, else on the next tick. */
  private push(line: string): void {
    this.buffer += line;
    this.added();
  }

  /** Counts the line just buffered; a full buffer is written now, else on the next tick. */
  private added(): void {
    this.bufferedLines++;
    if (this.buffer.length >= (this.options.bufferBytes ?? 64 * 1024)) this.flush();
    else this.scheduleFlush();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.bufferedLines === 0) return;
    const text = this.buffer;
    const lines = this.bufferedLines;
    this.buffer = '';
    this.bufferedLines = 0;
    if (this.fd === null) {
      this.counters.failedWrites += lines;
      return;
    }
    try {
      // Whole lines only: a single write per batch, never half a line per write call.
      writeSync(this.fd, text);
      this.counters.written += lines;
    } catch (error) {
      this.fail(error, lines);
    }
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.uninstall();
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch (error) {
        this.fail(error, 0);
      }
      this.fd = null;
    }
  }

  stats(): SinkStats {
    return { ...this.counters };
  }

  events(): readonly FaultlineEvent[] {
    return this.kept;
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.options.flushIntervalMs ?? 200);
    this.timer.unref();
  }

  private fail(error: unknown, lost: number): void {
    this.counters.failedWrites += lost;
    this.note(error instanceof Error ? error.message : String(error));
  }

  private note(message: string): void {
    if (this.counters.firstError !== null) return;
    this.counters.firstError = message;
    try {
      this.options.onError?.(message);
    } catch {
      // the reporter itself must not throw either
    }
  }
}

/** A sink that only keeps events in memory (tests, the emitter's dry mode). */
export class MemorySink implements EventSink {
  private seq = 0;
  private readonly kept: FaultlineEvent[] = [];
  constructor(private readonly now: () => number = Date.now) {}
  emit(input: EventInput): void {
    this.kept.push({ v: CONTRACT_VERSION, ts: this.now(), seq: ++this.seq, ...input } as FaultlineEvent);
  }
  flush(): void {}
  close(): void {}
  stats(): SinkStats {
    return { written: this.kept.length, failedWrites: 0, invalid: 0, firstError: null };
  }
  events(): readonly FaultlineEvent[] {
    return this.kept;
  }
}
