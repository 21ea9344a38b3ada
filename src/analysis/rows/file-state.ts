/**
 * What the cache knows about a trace file, and how it decides a cached
 * prefix still stands: the file's identity (device, inode), size and mtime,
 * and checksums of the first block and of the last block the cache covers.
 *
 * - unchanged: same identity, size and mtime, and the last covered block
 *   still reads the same;
 * - appended: same identity, the file grew past the size the cache saw, and
 *   both the first and the last covered block read the same: only the bytes
 *   after the covered prefix are new;
 * - stale: anything else (truncated, replaced, rewritten in place): read it all.
 *
 * Before a cached prefix is trusted, a checksum of all of its bytes is
 * compared too (content-hash.ts): an edit that keeps the size and mtime
 * (restored with `touch -d`), or one in the middle of a file that also grew,
 * makes it stale.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { contentHash } from './content-hash.js';

export interface FileState {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** A covered prefix of a file: its length (it ends at a line end) and its checksums. */
export interface CoveredMark {
  bytes: number;
  headHash: string;
  tailHash: string;
  /** Of every byte of the prefix (content-hash.ts). */
  contentHash: string;
}

export const BLOCK_BYTES = 64 * 1024;

export function fileState(path: string): FileState {
  const s = statSync(path);
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
}

function hashRange(fd: number, from: number, to: number): string {
  const buf = Buffer.alloc(to - from);
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, from + done);
    if (n === 0) break;
    done += n;
  }
  return createHash('sha256').update(buf.subarray(0, done)).digest('hex');
}

/** Checksums of the first block, of the block ending at `bytes`, and of all `bytes`. */
export function markCovered(path: string, bytes: number): CoveredMark {
  const fd = openSync(path, 'r');
  try {
    return { bytes, headHash: hashRange(fd, 0, Math.min(BLOCK_BYTES, bytes)), tailHash: hashRange(fd, Math.max(0, bytes - BLOCK_BYTES), bytes), contentHash: contentHash(path, bytes) };
  } finally {
    closeSync(fd);
  }
}

export type Reuse = 'unchanged' | 'appended' | 'stale';

export function compareState(path: string, cached: FileState, covered: CoveredMark, now: FileState): Reuse {
  if (now.dev !== cached.dev || now.ino !== cached.ino || now.size < covered.bytes) return 'stale';
  const sameTime = now.size === cached.size && now.mtimeMs === cached.mtimeMs;
  if (!sameTime && now.size <= cached.size) return 'stale';
  const mark = markCovered(path, covered.bytes);
  if (mark.tailHash !== covered.tailHash || mark.headHash !== covered.headHash || mark.contentHash !== covered.contentHash) return 'stale';
  return sameTime ? 'unchanged' : 'appended';
}
