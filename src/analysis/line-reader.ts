/**
 * Reads chosen lines of a (possibly gzipped) JSONL file by 1-based number,
 * splitting on '\n' exactly like the DuckDB raw-line scan. Only used for the
 * few lines DuckDB rejected, so the hot path never parses JSON in JS.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

export interface RawLine {
  text: string;
  /** The file's last line with no trailing newline (a torn write). */
  unterminated: boolean;
}

export async function readLines(path: string, wanted: ReadonlySet<number>): Promise<Map<number, RawLine>> {
  const found = new Map<number, RawLine>();
  if (wanted.size === 0) return found;
  const max = Math.max(...wanted);
  const raw = createReadStream(path);
  const stream = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  let lineNo = 1;
  let pending: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
        if (wanted.has(lineNo)) found.set(lineNo, { text: Buffer.concat([...pending, chunk.subarray(start, i)]).toString('utf8'), unterminated: false });
        pending = [];
        lineNo++;
        start = i + 1;
      }
      // Keep the partial line only if someone wants it (memory stays flat on huge files).
      if (start < chunk.length && wanted.has(lineNo)) pending.push(chunk.subarray(start));
      if (lineNo > max) return found;
    }
    if (pending.length > 0 && wanted.has(lineNo)) found.set(lineNo, { text: Buffer.concat(pending).toString('utf8'), unterminated: true });
    return found;
  } finally {
    raw.destroy();
  }
}

/** Calls `visit` for every line (1-based); returns the number of lines. Same '\n' splitting as readLines. */
export async function forEachLine(
  path: string,
  visit: (text: string, line: number, unterminated: boolean) => void | Promise<void>,
): Promise<number> {
  const raw = createReadStream(path);
  const stream = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  let lineNo = 0;
  let pending: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
        await visit(Buffer.concat([...pending, chunk.subarray(start, i)]).toString('utf8'), ++lineNo, false);
        pending = [];
        start = i + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
    if (pending.length > 0) await visit(Buffer.concat(pending).toString('utf8'), ++lineNo, true);
    return lineNo;
  } finally {
    raw.destroy();
  }
}
