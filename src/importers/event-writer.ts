/**
 * Writes imported events as contract JSONL and keeps the books of one source
 * file: every record used, skipped (by reason) or quarantined. Each event is
 * checked with the same judge as `faultline validate` (judgeValue) before it
 * is written, so the loader never finds a bad line in an import's output; an
 * event the contract rejects (an id longer than 128 characters, say)
 * quarantines the record it came from, with the contract's reason.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { CONTRACT_VERSION } from '../events/labels.js';
import { judgeValue } from '../events/parse-line.js';
import type { ImportSummary, QuarantinedLine } from '../analysis/load.js';
import type { ImportContext, ImportedEvent, RecordRef } from './types.js';

const FLUSH_BYTES = 1 << 20;

/** One output file for any number of source files; `seq` counts across all of them (one writer). */
export class EventWriter {
  private readonly fd: number;
  private seq = 0;
  private buffer: string[] = [];
  private buffered = 0;
  events = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  /** The line written, or the contract's reason it was not. */
  write(event: ImportedEvent): string | null {
    const verdict = judgeValue({ v: CONTRACT_VERSION, seq: ++this.seq, ...event });
    if (!verdict.ok) {
      this.seq--;
      return verdict.reason;
    }
    const line = JSON.stringify(verdict.event) + '\n';
    this.buffer.push(line);
    this.buffered += line.length;
    this.events++;
    if (this.buffered >= FLUSH_BYTES) this.flush();
    return null;
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
    this.buffered = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * The books of one source file, as an ImportContext for its importer. Only
 * quarantined records are remembered (by index, to count each once); skips
 * are counted, so memory does not grow with the file. An importer decides a
 * skip when it reads the record and never quarantines that record later.
 */
export class FileBooks implements ImportContext {
  private records = 0;
  private skippedTotal = 0;
  private readonly skipped = new Map<string, number>();
  private readonly quarantinedRefs = new Set<number>();
  /** Events written from this file's records (counted here: a format that joins files emits after all are read). */
  private eventsWritten = 0;
  private readonly runIds = new Set<string>();
  private readonly warnings = new Map<string, number>();
  /** Per kind of record: records that wrote an event (each once: a bit per record index) and the events by name. */
  private readonly kinds = new Map<string, { records: number; events: Map<string, number> }>();
  private counted = new Uint8Array(1024);
  readonly quarantined: QuarantinedLine[] = [];

  constructor(
    readonly file: string,
    private readonly writer: EventWriter,
    private readonly onBytes: (bytesRead: number) => void = () => {},
  ) {}

  record(line: number, file?: string): RecordRef {
    return file === undefined ? { index: this.records++, line } : { index: this.records++, line, file };
  }

  skip(_ref: RecordRef, reason: string): void {
    this.skippedTotal++;
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
  }

  quarantine(ref: RecordRef, reason: string): void {
    this.quarantined.push({ file: ref.file ?? this.file, line: ref.line, kind: 'import', reason });
    this.quarantinedRefs.add(ref.index);
  }

  emit(event: ImportedEvent, ref: RecordRef): void {
    const problem = this.writer.write(event);
    if (problem !== null) this.quarantine(ref, `cannot be written as a contract event: ${problem}`);
    else {
      this.eventsWritten++;
      this.runIds.add(event.run_id);
      this.tally(ref, event.event);
    }
  }

  private tally(ref: RecordRef, event: string): void {
    const kind = ref.kind ?? 'record';
    let k = this.kinds.get(kind);
    if (!k) this.kinds.set(kind, (k = { records: 0, events: new Map() }));
    k.events.set(event, (k.events.get(event) ?? 0) + 1);
    const byte = ref.index >> 3;
    if (byte >= this.counted.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.counted.length * 2));
      grown.set(this.counted);
      this.counted = grown;
    }
    const bit = 1 << (ref.index & 7);
    if ((this.counted[byte] as number) & bit) return;
    this.counted[byte] = (this.counted[byte] as number) | bit;
    k.records++;
  }

  warn(text: string): void {
    this.warnings.set(text, (this.warnings.get(text) ?? 0) + 1);
  }

  progress(bytesRead: number): void {
    this.onBytes(bytesRead);
  }

  summary(format: string, unit: string, notes: readonly string[]): ImportSummary {
    const quarantined = this.quarantinedRefs.size;
    return {
      file: this.file,
      format,
      unit,
      records: this.records,
      used: this.records - this.skippedTotal - quarantined,
      skipped: Object.fromEntries([...this.skipped].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
      quarantined,
      events: this.eventsWritten,
      notes: [...notes],
      run_ids: [...this.runIds].sort(),
      ...(this.warnings.size > 0 ? { warnings: Object.fromEntries(this.warnings) } : {}),
      kinds: Object.fromEntries([...this.kinds].map(([kind, k]) => [kind, { records: k.records, events: Object.fromEntries(k.events) }])),
    };
  }
}
