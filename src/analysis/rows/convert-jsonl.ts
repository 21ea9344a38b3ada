/**
 * One JSONL file (or a byte range of one, copied out) to a segment: its
 * typed, checked rows as Parquet, one file per event (hive style,
 * `event=<name>/`), and its line accounting.
 *
 * As in load-jsonl.ts, the file is read twice at once: DuckDB writes the
 * typed columns straight to Parquet (leniently, a line it cannot read
 * becomes an all-NULL row, left out), while JS judges every line exactly as
 * parseLine() does. The rows are kept when they provably are the accepted
 * lines: nothing needed rescuing, every rejected line is one DuckDB cannot
 * read as an event either (torn, not JSON), and the row count is the
 * accepted line count. Otherwise the file goes the numbered way of
 * load-jsonl.ts (rows marked by line number, rescued rows rebuilt) and the
 * valid rows are written from there.
 */
import { closeSync, mkdirSync, openSync, readSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Column } from '../../events/columns.js';
import { scanLines } from '../../events/line-scan.js';
import { sqlString, type Duck } from '../duck.js';
import { jsonlReader, loadJsonl, UNREADABLE } from '../load-jsonl.js';
import { createLinesTable } from '../lines-table.js';
import type { LoadStats } from '../load-types.js';
import type { Accounting } from './manifest.js';
import { writeFacts } from './run-seq.js';

export interface Converted extends Accounting {
  /** The segment directory: `event=<name>/*.parquet` and, when there are rows, `facts.parquet`. */
  dir: string;
  files: string[];
  facts: boolean;
  /** The last line had no newline: its line number and whether it was accepted. null for a file ending in a newline, or compressed. */
  unterminated: { line: number; accepted: boolean } | null;
}

export interface ConvertOptions {
  /** Added to every line number (the lines before this byte range). */
  lineOffset: number;
  onBytes?: (bytesRead: number) => void;
}

export const FACTS_FILE = 'facts.parquet';

function columnList(keep: Column[]): string {
  return keep.map((c) => `"${c.name}"`).join(', ');
}

/**
 * How pieces are written: one Parquet file per event. A partitioned COPY buffers a row group per event per
 * thread; at DuckDB's default (122,880 rows) that held ~1.4-1.7 GB at 10M events, at 30,000 about 1.1 GB,
 * with the same speed (bench/analysis: peak RSS must stay under 1.5 GB at 10M).
 */
export const PIECE_FORMAT = '(FORMAT parquet, COMPRESSION snappy, PARTITION_BY (event), ROW_GROUP_SIZE 30000)';

/** Rows of `select` to `dir`, one Parquet file per event; returns how many. */
async function writeRows(duck: Duck, select: string, dir: string): Promise<number> {
  const [row] = await duck.rows(`COPY (${select}) TO ${sqlString(dir)} ${PIECE_FORMAT}`);
  return Number(row?.Count ?? 0);
}

export function parquetFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.parquet') && e.name !== FACTS_FILE) out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

export async function convertJsonl(duck: Duck, path: string, dir: string, keep: Column[], options: ConvertOptions): Promise<Converted> {
  const select = `SELECT ${columnList(keep)} FROM ${jsonlReader(path, keep)} WHERE event IS NOT NULL`;
  // Settled both: a scan that fails (a .gz cut short) must not leave DuckDB writing while the caller closes it.
  const [written, scanned] = await Promise.allSettled([
    writeRows(duck, select, dir).catch(() => null),
    scanLines(path, () => {}, options.onBytes),
  ]);
  if (scanned.status === 'rejected') throw scanned.reason;
  const scan = scanned.value;
  const writtenRows = written.status === 'fulfilled' ? written.value : null;
  const accepted = scan.lines - scan.bad.length;
  let acc: Accounting;
  if (writtenRows === accepted && scan.rescued === 0 && scan.bad.every((b) => UNREADABLE.has(b.kind))) {
    acc = { lines: scan.lines, rows: writtenRows, quarantined: scan.bad.map(({ line, kind, reason }) => ({ line, kind, reason })), rescued: 0, rereads: 0 };
  } else {
    rmSync(dir, { recursive: true, force: true });
    acc = await convertNumbered(duck, path, dir, keep);
  }
  for (const q of acc.quarantined) q.line += options.lineOffset;
  mkdirSync(dir, { recursive: true });
  const files = acc.rows > 0 ? parquetFilesUnder(dir) : [];
  if (files.length > 0) await writeFacts(duck, `read_parquet([${files.map((f) => sqlString(join(dir, f))).join(', ')}])`, join(dir, FACTS_FILE));
  const last = path.endsWith('.gz') || endsWithNewline(path) ? null : options.lineOffset + acc.lines;
  const unterminated = last === null ? null : { line: last, accepted: !acc.quarantined.some((q) => q.line === last) };
  return { ...acc, dir, files, facts: files.length > 0, unterminated };
}

/** The numbered way (load-jsonl.ts) into the `lines` table, then the valid rows to Parquet. */
async function convertNumbered(duck: Duck, path: string, dir: string, keep: Column[]): Promise<Accounting> {
  await createLinesTable(duck, keep);
  const stats: LoadStats = { files: [path], inputs: [], copiedRuns: [], linesRead: 0, eventsUsed: 0, quarantined: [], rescued: 0, rereads: 0 };
  try {
    await loadJsonl(duck, { path, format: 'jsonl' }, 0, keep, stats, { lineNumbers: true });
    const rows = await writeRows(duck, `SELECT ${columnList(keep)} FROM lines WHERE valid`, dir);
    return { lines: stats.linesRead, rows, quarantined: stats.quarantined.map(({ line, kind, reason }) => ({ line, kind, reason })), rescued: stats.rescued, rereads: 1 };
  } finally {
    await duck.exec('DROP TABLE IF EXISTS lines');
  }
}

function endsWithNewline(path: string): boolean {
  const size = statSync(path).size;
  if (size === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] === 10;
  } finally {
    closeSync(fd);
  }
}
