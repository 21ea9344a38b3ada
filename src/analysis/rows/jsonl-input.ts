/**
 * The rows of one JSONL input for a report: from the row cache where it
 * still stands (rows/file-state.ts), parsing only the bytes it does not
 * cover, or read afresh; the new rows are kept for the next report.
 *
 * A last line without a newline may still be being written. One that was
 * rejected (torn) is left out of the cached segment and judged again next
 * time. One that was accepted is cached with the rest (its row cannot be
 * told apart) as an open end: the file must then go on with the newline
 * that ends it, or it was changed and is read again in full.
 */
import { closeSync, createReadStream, createWriteStream, openSync, readSync, realpathSync, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Column } from '../../events/columns.js';
import type { Duck } from '../duck.js';
import type { TraceFile } from '../inputs.js';
import { CacheEntry } from './cache-entry.js';
import type { ResolvedCache } from './cache-root.js';
import { convertJsonl, type Converted } from './convert-jsonl.js';
import { compareState, fileState, markCovered, type FileState } from './file-state.js';
import { CACHE_FORMAT, sumAccounting, type Accounting, type Manifest, type SegmentRecord } from './manifest.js';
import { mergeTail } from './merge-segments.js';
import type { ReaderDir } from './reader-dir.js';
import type { CacheUse } from './cache-use.js';

export type { CacheUse } from './cache-use.js';

export interface InputRows extends Accounting {
  cache: CacheUse;
  /** Bytes parsed by this report, and bytes whose rows came from the cache. */
  parsedBytes: number;
  reusedBytes: number;
}

export interface RowsContext {
  duck: Duck;
  keep: Column[];
  reader: ReaderDir;
  cache: ResolvedCache | null;
  fingerprint: string;
}

/** Whether the rows of this input are kept in the cache (a JSONL file of its own, big enough to be worth it). */
export function isCacheable(file: TraceFile, cache: ResolvedCache): boolean {
  return file.format === 'jsonl' && !file.transient && statSync(file.path).size >= cache.minBytes;
}

export async function jsonlRows(ctx: RowsContext, file: TraceFile, fileId: number, onBytes?: (n: number) => void): Promise<InputRows> {
  const before = fileState(file.path);
  const entry = ctx.cache && isCacheable(file, ctx.cache) ? openEntry(ctx.cache, file, ctx.fingerprint) : null;
  if (entry === null) {
    const c = await convertJsonl(ctx.duck, file.path, ctx.reader.work('rows'), ctx.keep, { lineOffset: 0, onBytes });
    ctx.reader.add(fileId, c, 'move');
    return { ...accountingOf(c), cache: ctx.cache ? 'small' : 'off', parsedBytes: before.size, reusedBytes: 0 };
  }
  const manifest = entry.read();
  const plan = manifest === null ? null : planReuse(file.path, manifest, before);
  const reused = manifest !== null && plan !== null && entry.linkInto(ctx.reader, fileId, manifest) ? { manifest, ...plan } : null;
  const cached = reused ? sumAccounting(reused.manifest.segments) : sumAccounting([]);
  const from = reused?.from ?? 0;
  const use: CacheUse = reused?.use ?? (manifest === null ? 'cold' : 'stale');
  onBytes?.(from);
  if (before.size === from) return { ...cached, cache: use, parsedBytes: 0, reusedBytes: from };
  // Only the bytes the cache does not cover are parsed; a range is copied out so DuckDB and the scan read the same bytes.
  const source = from === 0 ? file.path : ctx.reader.work('range');
  if (from > 0) await copyRange(file.path, from, before.size, source);
  const seg = entry.newSegment();
  const c = await convertJsonl(ctx.duck, source, seg.tmp, ctx.keep, { lineOffset: cached.lines, onBytes: onBytes && ((n) => onBytes(from + n)) });
  const kept = keepable(c, seg.id, from, source, before.size);
  if (from > 0) rmSync(source, { force: true });
  if (kept !== null && sameState(before, fileState(file.path))) {
    const next: Manifest = {
      format: CACHE_FORMAT, fingerprint: entry.fingerprint, path: entry.realPath, state: before,
      covered: markCovered(file.path, kept.segment.toByte), openEnd: kept.openEnd,
      segments: [...(reused?.manifest.segments ?? []), kept.segment],
    };
    entry.commit(next, [seg]);
    ctx.reader.add(fileId, { dir: entry.segmentDir(seg.id), files: c.files, facts: c.facts }, 'link');
    await mergeTail(ctx.duck, entry, next);
  } else ctx.reader.add(fileId, c, 'move');
  return { ...sumAccounting([cached, accountingOf(c)]), cache: use, parsedBytes: before.size - from, reusedBytes: from };
}

function openEntry(cache: ResolvedCache, file: TraceFile, fingerprint: string): CacheEntry | null {
  try {
    return CacheEntry.open(cache.root, realpathSync(file.path), fingerprint);
  } catch {
    return null; // An unwritable cache directory: read afresh.
  }
}

/**
 * Where parsing resumes when the cache still stands. After an open end (an
 * accepted last line without a newline) the file must go on with that
 * newline, or the line was changed and everything is read again.
 */
function planReuse(path: string, manifest: Manifest, now: FileState): { use: 'unchanged' | 'appended'; from: number } | null {
  const reuse = compareState(path, manifest.state, manifest.covered, now);
  if (reuse === 'stale' || (reuse === 'appended' && path.endsWith('.gz'))) return null;
  const from = manifest.covered.bytes;
  if (reuse === 'unchanged' || !manifest.openEnd) return { use: reuse, from };
  return byteAt(path, from) === 10 ? { use: reuse, from: from + 1 } : null;
}

/**
 * What of a converted piece may be cached: all of it (ending at a newline,
 * or at an accepted last line without one: an open end), all but a torn
 * last line (judged again next time), or nothing (the piece was only a torn line).
 */
function keepable(c: Converted, id: string, from: number, source: string, size: number): { segment: SegmentRecord; openEnd: boolean } | null {
  const segment = (acc: Accounting, to: number): SegmentRecord => ({ id, fromByte: from, toByte: to, files: c.files, facts: c.facts, ...accountingOf(acc) });
  if (c.unterminated === null) return { segment: segment(c, size), openEnd: false };
  if (c.unterminated.accepted) return { segment: segment(c, size), openEnd: true };
  const last = c.unterminated.line;
  const acc: Accounting = { ...accountingOf(c), lines: c.lines - 1, quarantined: c.quarantined.filter((q) => q.line !== last) };
  return acc.lines > 0 ? { segment: segment(acc, from + lastLineEnd(source, size - from)), openEnd: false } : null;
}

function accountingOf(a: Accounting): Accounting {
  return { lines: a.lines, rows: a.rows, quarantined: a.quarantined, rescued: a.rescued, rereads: a.rereads };
}

function sameState(a: FileState, b: FileState): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function byteAt(path: string, at: number): number | undefined {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(1);
    return readSync(fd, b, 0, 1, at) === 1 ? b[0] : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Bytes [from, to) of a file into a new file. */
async function copyRange(path: string, from: number, to: number, out: string): Promise<void> {
  await pipeline(createReadStream(path, { start: from, end: to - 1 }), createWriteStream(out));
}

/** The offset just past the last newline among the first `size` bytes (0 when there is none). */
function lastLineEnd(path: string, size: number): number {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      const at = buf.subarray(0, n).lastIndexOf(10);
      if (at !== -1) return start + at + 1;
      end = start;
    }
    return 0;
  } finally {
    closeSync(fd);
  }
}
