/**
 * Reads the records of a source file in bounded memory, each with the line
 * it starts on, whatever the file's layout:
 * - JSON Lines (Claude Code transcripts, an OTLP collector's file exporter,
 *   a span log): one record per line;
 * - one JSON document (a pretty-printed OTLP export, τ-bench's results
 *   array, an Agents SDK `{"data": [...]}` payload): the elements at the
 *   given paths, streamed by @streamparser/json, so a large file is never
 *   held whole.
 * A line that is not UTF-8, not JSON or empty is quarantined with its
 * reason, as a native trace's would be; so is the rest of a document from
 * the point where it stops being valid JSON.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { bomLength, forEachLineBytes, isBlankLine } from '../events/trace-lines.js';
import { readSample } from './sample.js';
import type { ImportContext, Sample } from './types.js';

/** One value read: the line it starts on, and the keys of the containers above it (root first). */
export type OnValue = (value: unknown, line: number, keys: readonly unknown[]) => void;

/** How a JSON document's records are found: JSONPath-like selectors of @streamparser/json (`$.*`, `$.data.*`). */
export interface DocumentLayout {
  paths: string[];
}

/** JSON Lines: every line is a value; a line holding an array is one value per element. Bad lines are quarantined here. */
export async function readJsonLines(path: string, ctx: ImportContext, onValue: OnValue): Promise<void> {
  await forEachLineBytes(
    path,
    (buf, start, end, line, unterminated) => {
      const bytes = buf.subarray(start, end);
      let value: unknown;
      if (!isUtf8(bytes)) return void ctx.quarantine(ctx.record(line), 'not valid UTF-8');
      if (isBlankLine(buf, start, end)) return void ctx.quarantine(ctx.record(line), 'empty line');
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch (error) {
        const reason = unterminated ? 'torn last line (no trailing newline, not valid JSON)' : `not JSON: ${(error as Error).message}`;
        return void ctx.quarantine(ctx.record(line), reason);
      }
      if (Array.isArray(value)) for (const item of value) onValue(item, line, []);
      else onValue(value, line, []);
    },
    (bytesRead) => ctx.progress(bytesRead),
  );
}

/** Byte offset -> line number for the chunk being parsed (tokens are reported while their chunk is current). */
class LineMap {
  private base = 0;
  private firstLine = 1;
  private newlines: number[] = [];

  next(chunk: Buffer): void {
    this.firstLine += this.newlines.length;
    this.base += this.length;
    this.length = chunk.length;
    this.newlines = [];
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.newlines.push(i);
  }

  private length = 0;

  lineAt(offset: number): number {
    const at = offset - this.base;
    // Binary search: how many newlines of this chunk come before `at`.
    let lo = 0;
    let hi = this.newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.newlines[mid] ?? 0) < at) lo = mid + 1;
      else hi = mid;
    }
    return this.firstLine + lo;
  }
}

const LEFT_BRACE = 0;
const RIGHT_BRACE = 1;
const LEFT_BRACKET = 2;
const RIGHT_BRACKET = 3;

/**
 * One JSON document: the values at `layout.paths`, each with the line its
 * first token is on. Where the document stops being JSON, the rest of it is
 * one quarantined record.
 */
export async function readJsonDocument(path: string, ctx: ImportContext, layout: DocumentLayout, onValue: OnValue): Promise<void> {
  const lines = new LineMap();
  const opened: number[] = [];
  let closedLine = 1;
  let tokenLine = 1;
  let failed: { line: number; message: string } | null = null;
  const parser = new JSONParser({ paths: layout.paths, keepStack: false });
  parser.onToken = ({ token, offset }) => {
    tokenLine = lines.lineAt(offset);
    if (token === LEFT_BRACE || token === LEFT_BRACKET) opened.push(tokenLine);
    else if (token === RIGHT_BRACE || token === RIGHT_BRACKET) closedLine = opened.pop() ?? tokenLine;
  };
  parser.onValue = ({ value, stack }) => {
    const line = typeof value === 'object' && value !== null ? closedLine : tokenLine;
    onValue(value, line, stack.map((s) => s.key));
  };
  parser.onError = (error) => {
    failed ??= { line: tokenLine, message: error.message };
  };
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let first = true;
  for await (const read of stream as AsyncIterable<Buffer>) {
    if (failed || parser.isEnded) break;
    // A byte order mark is not part of the document (events/trace-lines.ts, bomLength).
    const chunk = first ? read.subarray(bomLength(read)) : read;
    first = false;
    lines.next(chunk);
    parser.write(chunk);
    ctx.progress(stream.bytesRead);
  }
  stream.destroy();
  if (!failed && !parser.isEnded) parser.end();
  const failure = failed as { line: number; message: string } | null;
  if (failure) ctx.quarantine(ctx.record(failure.line), `not JSON from this line on: ${failure.message}`);
}

/** The first non-blank line of a sample parses as JSON: the file is JSON Lines, else one document. */
export function isJsonLines(lines: readonly unknown[]): boolean {
  return lines.length > 0 && lines[0] !== undefined;
}

/**
 * A source file's values whatever its layout: JSON Lines when its first line
 * is a whole JSON value (values then come with no container keys), else one
 * document read at the paths `documentPaths` gives for its first bytes.
 */
export async function readSource(path: string, ctx: ImportContext, documentPaths: (sample: Sample) => string[], onValue: OnValue): Promise<void> {
  const sample = readSample(path);
  if (isJsonLines(sample.lines)) await readJsonLines(path, ctx, onValue);
  else await readJsonDocument(path, ctx, { paths: documentPaths(sample) }, onValue);
}
