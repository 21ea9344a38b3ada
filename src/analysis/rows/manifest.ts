/**
 * The record of one cached trace file: what state of the file it covers and
 * the segments holding its rows. A segment is a directory of Parquet files,
 * one per event (`event=<name>/data_0.parquet`, hive style), plus
 * `facts.parquet` (per-run seq facts, rows/run-seq.ts), and its share of the
 * line accounting: lines read, quarantined lines with their reasons. The
 * manifest is replaced atomically (write, then rename) and segments are
 * never changed once written, so a reader sees either the old or the new
 * record, whole.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QuarantinedLine } from '../load-types.js';
import type { CoveredMark, FileState } from './file-state.js';

/** Bump when a change to the line check or to the stored rows would make old entries wrong. */
/** 3: the covered prefix carries a checksum of all its bytes (file-state.ts). */
export const CACHE_FORMAT = 3;

export type LineVerdict = Omit<QuarantinedLine, 'file'>;

/** The line accounting of a piece of a trace (line numbers are the file's own). */
export interface Accounting {
  lines: number;
  rows: number;
  quarantined: LineVerdict[];
  rescued: number;
  rereads: number;
}

export interface SegmentRecord extends Accounting {
  /** Directory name inside the entry. */
  id: string;
  fromByte: number;
  toByte: number;
  /** Parquet files of rows, relative to the segment directory (`event=<name>/...`). */
  files: string[];
  /** Whether facts.parquet exists (a segment without rows has no facts). */
  facts: boolean;
}

export interface Manifest {
  format: number;
  /** The fingerprint of the checker and the stored columns this entry was written with. */
  fingerprint: string;
  path: string;
  state: FileState;
  covered: CoveredMark;
  /** The last covered line has no newline (it was accepted, so its row is cached): the file must go on with one. */
  openEnd: boolean;
  segments: SegmentRecord[];
}

export const MANIFEST = 'manifest.json';

export function readManifest(entry: string, fingerprint: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(join(entry, MANIFEST), 'utf8')) as Manifest;
    return m.format === CACHE_FORMAT && m.fingerprint === fingerprint ? m : null;
  } catch {
    return null;
  }
}

export function writeManifest(entry: string, manifest: Manifest): void {
  const tmp = join(entry, `${MANIFEST}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, join(entry, MANIFEST));
}

export function sumAccounting(parts: Accounting[]): Accounting {
  const out: Accounting = { lines: 0, rows: 0, quarantined: [], rescued: 0, rereads: 0 };
  for (const p of parts) {
    out.lines += p.lines;
    out.rows += p.rows;
    out.quarantined.push(...p.quarantined);
    out.rescued += p.rescued;
    out.rereads += p.rereads;
  }
  return out;
}
