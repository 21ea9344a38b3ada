/**
 * Streams the lines of a trace file (plain or .gz) with their 1-based line
 * numbers, and says whether the last one lacked its newline (a torn write).
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

export interface TraceLine {
  line: number;
  text: string;
  /** Last line of the file without a trailing newline. */
  unterminated: boolean;
}

export async function* traceLines(path: string): AsyncGenerator<TraceLine> {
  let stream: Readable = createReadStream(path);
  if (path.endsWith('.gz')) stream = stream.pipe(createGunzip());
  let pending = '';
  let line = 0;
  for await (const chunk of stream) {
    pending += (chunk as Buffer).toString('utf8');
    let start = 0;
    for (let nl = pending.indexOf('\n', start); nl !== -1; nl = pending.indexOf('\n', start)) {
      yield { line: ++line, text: pending.slice(start, nl), unterminated: false };
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  if (pending.length > 0) yield { line: ++line, text: pending, unterminated: true };
}
