/**
 * A file is what its name says before any reader starts on it: a .gz starts
 * with gzip's magic bytes, a .parquet starts and ends with `PAR1`. A file
 * that is not is an InputError naming it (exit 2 at the CLI), never an
 * internal error from deep inside DuckDB or zlib.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InputError, type TraceFile } from './inputs.js';

const GZIP = Buffer.from([0x1f, 0x8b]);
const PARQUET = Buffer.from('PAR1');

function bytesAt(path: string, position: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    return buf.subarray(0, readSync(fd, buf, 0, length, position));
  } finally {
    closeSync(fd);
  }
}

export function assertFileKind(file: TraceFile): void {
  const size = statSync(file.path).size;
  if (file.format === 'parquet') {
    const ok = size >= 8 && bytesAt(file.path, 0, 4).equals(PARQUET) && bytesAt(file.path, size - 4, 4).equals(PARQUET);
    if (!ok) throw new InputError(`${file.path}: not a Parquet file (no PAR1 magic bytes${size === 0 ? '; it is empty' : ''}); faultline compact writes them`);
  } else if (file.path.endsWith('.gz') && size > 0 && !bytesAt(file.path, 0, 2).equals(GZIP)) {
    throw new InputError(`${file.path}: not gzip data (no gzip magic bytes); a plain JSONL trace is named .jsonl`);
  }
}
