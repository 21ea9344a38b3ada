/**
 * What every importer is: a reader of one other trace format that writes
 * contract events (src/events/schemas.ts) and accounts for every record of
 * its source as used, skipped (with a reason) or quarantined (file:line).
 *
 * An importer maps only what its source records. A value the source does not
 * have is written as `null` (the contract's "not available in source"), never
 * guessed; `notes` says, for the report, what the format cannot tell.
 */
import type { EventInput } from '../events/schemas.js';

export const FORMAT_NAMES = ['otel', 'claude-code', 'openai-agents', 'tau-bench', 'tau2-bench'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** One record of a source file: a line, a span, a result. `line` is where it starts (1-based). */
export interface RecordRef {
  index: number;
  line: number;
  /** The file the record is in, when it is not the imported file itself (a τ²-bench simulation file read through its results.json). */
  file?: string;
  /** What kind of record it is in the source's terms (`span ai.toolCall`, `line assistant`), for `import --explain`; set by the importer once it knows. */
  kind?: string;
}

/** An event as an importer builds it: the writer adds `v` and `seq`; `ts` is the source's time or null. */
export type ImportedEvent = EventInput & { ts: number | null };

export interface ImportContext {
  readonly file: string;
  /** Starts the next record; every record is then used, skipped or quarantined. */
  record(line: number, file?: string): RecordRef;
  /** The record carries nothing the contract has an event for (counted by reason). */
  skip(ref: RecordRef, reason: string): void;
  /** The record cannot be read or mapped: listed as file:line: reason. */
  quarantine(ref: RecordRef, reason: string): void;
  /** Writes a contract event built from `ref`; an event the contract rejects quarantines `ref` instead. */
  emit(event: ImportedEvent, ref: RecordRef): void;
  /** Something about a used record the figures cannot show (a shape with no tool calls, say); counted by text and printed with the import. */
  warn(text: string): void;
  /** Bytes of this file read so far (progress). */
  progress(bytesRead: number): void;
}

/** The first bytes of a file, for detection by content. */
export interface Sample {
  path: string;
  /** The start of the file, decoded as UTF-8 (up to 64 KiB, or the whole first line if it is longer). */
  text: string;
  /** The complete lines of `text`, each parsed as JSON, or undefined where a line is not JSON (a pretty-printed document's first line, say). */
  lines: unknown[];
}

export interface Importer {
  name: FormatName;
  /** What the format is, for --help. */
  title: string;
  /** What one record is: `line`, `span`, `result`, `item`. */
  unit: string;
  /** File name endings searched in a directory when this format is named. */
  extensions: readonly string[];
  /** True when the sample is this format (checked by content, never by name alone). */
  detect(sample: Sample): boolean;
  /** What this source cannot record; shown with the import so the report never implies it. */
  notes: readonly string[];
  /** Other files `importFile(path)` reads itself (so a directory import does not read them twice). */
  covers?(path: string): string[];
  /** Reads one file, accounting for each of its records in `ctx`. */
  importFile(path: string, ctx: ImportContext): Promise<void>;
  /** Reads all files of this format in one import together (spans of one trace split over rotated files join), each with its own books. */
  importAll?(files: readonly { path: string; ctx: ImportContext }[]): Promise<void>;
}
