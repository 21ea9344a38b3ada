/**
 * Keeps an often-appended trace's entry at a few segments: past
 * MAX_SEGMENTS, every segment after the first (the first full read, usually
 * the big one) is rewritten as one. The cost is that of the appended rows
 * only, paid once every few appends.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sqlString, type Duck } from '../duck.js';
import type { CacheEntry } from './cache-entry.js';
import { FACTS_FILE, parquetFilesUnder, PIECE_FORMAT } from './convert-jsonl.js';
import { sumAccounting, type Manifest, type SegmentRecord } from './manifest.js';
import { writeFacts } from './run-seq.js';

export const MAX_SEGMENTS = 8;

export async function mergeTail(duck: Duck, entry: CacheEntry, manifest: Manifest): Promise<Manifest> {
  if (manifest.segments.length <= MAX_SEGMENTS) return manifest;
  const [first, ...rest] = manifest.segments as [SegmentRecord, ...SegmentRecord[]];
  const files = rest.flatMap((s) => s.files.map((f) => sqlString(join(entry.segmentDir(s.id), f))));
  const seg = entry.newSegment();
  const acc = sumAccounting(rest);
  let out: string[] = [];
  if (files.length > 0) {
    const source = `read_parquet([${files.join(', ')}], hive_partitioning=true, hive_types={'event': 'VARCHAR'})`;
    await duck.exec(`COPY (SELECT * FROM ${source}) TO ${sqlString(seg.tmp)} ${PIECE_FORMAT}`);
    out = parquetFilesUnder(seg.tmp);
    await writeFacts(duck, `read_parquet([${out.map((f) => sqlString(join(seg.tmp, f))).join(', ')}])`, join(seg.tmp, FACTS_FILE));
  } else mkdirSync(seg.tmp, { recursive: true });
  const merged: SegmentRecord = { ...acc, id: seg.id, fromByte: rest[0]?.fromByte ?? first.toByte, toByte: rest.at(-1)?.toByte ?? first.toByte, files: out, facts: out.length > 0 };
  const next: Manifest = { ...manifest, segments: [first, merged] };
  entry.commit(next, [seg]);
  return next;
}
