/**
 * A checksum of a file's first `bytes` bytes, all of them: what tells the
 * caches (row and figures) that a trace was edited in place even when the
 * edit kept its size and its modification time (an editor or `touch -d`
 * restoring it). CRC-32 (zlib's, about 4.7 GB/s here, so reading the file
 * costs more than checking it) where Node has it (20.15 and later), else
 * SHA-1; the name goes into the value so the two never compare equal.
 * It guards against accidents, not against someone forging a collision.
 *
 * Memoized in the process by the file's identity, size, mtime and ctime
 * (a write always moves ctime, and nothing but the system clock sets it back),
 * so one report reads each input once to check it, however many layers ask.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import * as zlib from 'node:zlib';

const CHUNK = 8 * 1024 * 1024;
const crc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
const memo = new Map<string, string>();

export function contentHash(path: string, bytes: number): string {
  const s = statSync(path);
  const key = [path, s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs, bytes].join('\0');
  const known = memo.get(key);
  if (known !== undefined) return known;
  const value = hashPrefix(path, bytes);
  if (memo.size > 256) memo.clear();
  memo.set(key, value);
  return value;
}

function hashPrefix(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, bytes)));
  let crc = 0;
  const sha = crc32 ? null : createHash('sha1');
  let at = 0;
  try {
    while (at < bytes) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, bytes - at), at);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      if (crc32) crc = crc32(chunk, crc);
      else sha?.update(chunk);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  // A file shorter than `bytes` hashes what it has, with its length: it can never equal the full prefix's value.
  return crc32 ? `crc32:${at}:${(crc >>> 0).toString(16).padStart(8, '0')}` : `sha1:${at}:${sha?.digest('hex')}`;
}
