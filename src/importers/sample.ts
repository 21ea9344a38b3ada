/** The first bytes of a file, parsed as far as they go: what detection and the readers decide a layout from. */
import { closeSync, openSync, readSync } from 'node:fs';
import { bomLength } from '../events/trace-lines.js';
import type { Sample } from './types.js';

const SAMPLE_BYTES = 64 * 1024;
/** A first line longer than this (a huge tool result, say) is not waited for: detection uses the text. */
const MAX_FIRST_LINE = 16 * 1024 * 1024;

export function readSample(path: string): Sample {
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.alloc(SAMPLE_BYTES);
    let size = readSync(fd, buf, 0, buf.length, 0);
    // Read on until the first line ends, so a long first line can still be parsed.
    while (size === buf.length && buf.indexOf(10) === -1 && buf.length < MAX_FIRST_LINE) {
      const more = Buffer.alloc(buf.length * 2);
      buf.copy(more);
      size += readSync(fd, more, size, more.length - size, size);
      buf = more;
    }
    // Past a byte order mark (events/trace-lines.ts, bomLength): the sniffers and JSON.parse see the text itself.
    const text = buf.subarray(bomLength(buf.subarray(0, size)), size).toString('utf8');
    const complete = text.split('\n');
    if (size === buf.length) complete.pop(); // the last piece may be cut
    const lines = complete
      .filter((l) => l.trim() !== '')
      .slice(0, 20)
      .map((l) => {
        try {
          return JSON.parse(l) as unknown;
        } catch {
          return undefined;
        }
      });
    return { path, text, lines };
  } finally {
    closeSync(fd);
  }
}

