/**
 * Splits a trace file (plain or .gz) into lines on '\n' bytes, with 1-based
 * line numbers. It works on bytes, not decoded text: a chunk boundary never
 * splits a character, a line's bytes can be checked for UTF-8 before they are
 * decoded, and the hot loop allocates nothing per line.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parseLine, type LineVerdict } from './parse-line.js';

/** A trace file that cannot be read as what its name says: a .gz that is not gzip, or whose gzip data is cut short. */
export class TraceFileError extends Error {
  readonly code = 'TRACE_FILE';
}

/** zlib's errors on a .gz file, as one line naming the file. */
function gzipProblem(path: string, error: unknown): TraceFileError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return null;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'Z_BUF_ERROR') return new TraceFileError(`${path}: gzip data cut short (${message})`);
  return new TraceFileError(`${path}: not gzip data (${message}); a plain JSONL trace is named .jsonl`);
}

/** Called once per line with the bytes `buf[start, end)` (newline excluded). */
export type LineVisitor = (buf: Buffer, start: number, end: number, line: number, unterminated: boolean) => void;

/**
 * Visits every line; returns the number of lines. The last line without a
 * newline is `unterminated`. `onBytes` hears how many bytes of the file (as
 * stored, so compressed for .gz) have been read so far. `afterChunk`, when
 * given, is awaited after each chunk's lines, so a caller with slow output
 * (an HTTP export) holds the reading back instead of buffering the file.
 */
export async function forEachLineBytes(path: string, visit: LineVisitor, onBytes?: (bytesRead: number) => void, afterChunk?: () => Promise<void>): Promise<number> {
  const gz = path.endsWith('.gz');
  // A 0-byte .gz holds no lines, like a 0-byte .jsonl (gunzip would call it cut short).
  if (gz && statSync(path).size === 0) return 0;
  try {
    return await visitLines(path, gz, visit, onBytes, afterChunk);
  } catch (error) {
    throw (gz && gzipProblem(path, error)) || error;
  }
}

async function visitLines(path: string, gz: boolean, visit: LineVisitor, onBytes?: (bytesRead: number) => void, afterChunk?: () => Promise<void>): Promise<number> {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const stream: Readable = gz ? raw.pipe(createGunzip()) : raw;
  let line = 0;
  let pending: Buffer | null = null;
  let first = true;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    onBytes?.(raw.bytesRead);
    let start = first ? bomLength(chunk) : 0;
    first = false;
    let nl = chunk.indexOf(10);
    if (pending !== null && nl !== -1) {
      const joined = Buffer.concat([pending, chunk.subarray(0, nl)]);
      visit(joined, 0, joined.length, ++line, false);
      pending = null;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    for (; nl !== -1; nl = chunk.indexOf(10, start)) {
      visit(chunk, start, nl, ++line, false);
      start = nl + 1;
    }
    if (start < chunk.length) pending = pending === null ? Buffer.from(chunk.subarray(start)) : Buffer.concat([pending, chunk.subarray(start)]);
    if (afterChunk) await afterChunk();
  }
  if (pending !== null) visit(pending, 0, pending.length, ++line, true);
  return line;
}

/**
 * A UTF-8 byte order mark, which Windows tools write at the start of a text file (PowerShell's `Out-File -Encoding
 * utf8`, Notepad). It is not part of the first line: RFC 8259 lets a JSON parser ignore it, so the first event of
 * such a trace is read, not quarantined as "not JSON". DuckDB's reader does not skip it; the reports rebuild that
 * row from this reader's event, as for any line DuckDB cannot read (analysis/load-jsonl.ts).
 */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The length of the byte order mark the first bytes of a file start with: 3, or 0 without one. */
export function bomLength(firstBytes: Buffer): number {
  return firstBytes.length >= UTF8_BOM.length && firstBytes[0] === 0xef && firstBytes[1] === 0xbb && firstBytes[2] === 0xbf ? UTF8_BOM.length : 0;
}

/** True for a line DuckDB's JSON reader skips: nothing but JSON whitespace. */
export function isBlankLine(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/** parseLine on raw bytes: invalid UTF-8 is its own problem, not a garbled string. */
export function parseLineBytes(bytes: Buffer, unterminated: boolean): LineVerdict {
  if (!isUtf8(bytes)) return { ok: false, kind: 'not_utf8', reason: 'not valid UTF-8' };
  if (isBlankLine(bytes, 0, bytes.length)) return { ok: false, kind: 'not_json', reason: 'empty line' };
  return parseLine(bytes.toString('utf8'), { unterminated });
}
