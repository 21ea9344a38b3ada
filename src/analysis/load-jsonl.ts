/**
 * Loads one JSONL trace file into the `lines` table.
 *
 * The file is read twice at the same time: DuckDB parses the typed columns
 * the reports need on its own threads (leniently, ignoring errors), while JS
 * judges every line exactly as `parseLine()` does (events/line-scan.ts).
 *
 * DuckDB numbering its rows (WITH ORDINALITY) makes its read about 1.5x
 * slower, and rows only need numbers when the scan found something to fix.
 * So when line numbers are optional (reports), the read is unnumbered, and
 * kept when it provably lines up with the scan: every line the scan
 * rejected is one DuckDB could not read as an event either (torn, not
 * JSON), and nothing needed rescuing. Otherwise the rows are read again,
 * numbered, and the scan's verdicts applied by line number: rejected rows
 * marked invalid, rescued rows rebuilt from parseLine's event. When even the
 * numbered read does not line up (DuckDB failed, or split a line
 * differently), the file is reloaded from the lines parseLine accepted.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Column } from '../events/columns.js';
import { scanLines, type LineScan } from '../events/line-scan.js';
import type { LineProblem } from '../events/parse-line.js';
import type { FaultlineEvent } from '../events/schemas.js';
import { forEachLineBytes, parseLineBytes } from '../events/trace-lines.js';
import { sqlType } from './columns-sql.js';
import { sqlString, type Duck } from './duck.js';
import type { TraceFile } from './inputs.js';
import type { LoadStats } from './load-types.js';

const LINE_COLUMN = '__line';

/** Problems that leave DuckDB's lenient reader with no event either (an all-NULL row). */
export const UNREADABLE: ReadonlySet<LineProblem> = new Set(['torn', 'not_json']);

type Numbering = 'none' | 'ordinal' | 'field';

/** DuckDB's lenient reader of the typed columns of a JSONL file: a line it cannot read becomes an all-NULL row. */
export function jsonlReader(path: string, keep: Column[], lineField = false): string {
  const cols = keep.map((c) => `${sqlString(c.name)}: ${sqlString(sqlType(c))}`);
  if (lineField) cols.push(`${sqlString(LINE_COLUMN)}: 'BIGINT'`);
  return `read_json(${sqlString(path)}, format='newline_delimited', columns={${cols.join(', ')}}, ignore_errors=true)`;
}

/** Typed rows of a JSONL file; `ordinal` numbers them in reading order (whitespace-only lines are skipped, so not yet physical line numbers). */
function typedPassSql(path: string, fileId: number, keep: Column[], numbering: Numbering): string {
  const names = keep.map((c) => `"${c.name}"`).join(', ');
  const reader = jsonlReader(path, keep, numbering === 'field');
  if (numbering === 'ordinal') return `INSERT INTO lines SELECT ${fileId}, n, true, ${names} FROM ${reader} WITH ORDINALITY AS r(${names}, n)`;
  if (numbering === 'field') return `INSERT INTO lines SELECT ${fileId}, "${LINE_COLUMN}", true, ${names} FROM ${reader}`;
  return `INSERT INTO lines SELECT ${fileId}, NULL, true, ${names} FROM ${reader}`;
}

async function tryExec(duck: Duck, sql: string): Promise<Error | null> {
  return duck.exec(sql).then(
    () => null,
    (error: unknown) => error as Error,
  );
}

async function fileCount(duck: Duck, fileId: number, where = 'true'): Promise<number> {
  const [row] = await duck.rows(`SELECT count(*) AS n FROM lines WHERE file_id = ${fileId} AND ${where}`);
  return Number(row?.n ?? 0);
}

/** Canonical JSON of accepted events, tagged with their line number, in a temp file DuckDB reads back. */
class RescueFile {
  readonly dir = mkdtempSync(join(tmpdir(), 'faultline-rescue-'));
  readonly path = join(this.dir, 'rescued.jsonl');
  private readonly fd = openSync(this.path, 'w');
  private buffered: string[] = [];
  count = 0;

  add(line: number, event: FaultlineEvent): void {
    this.buffered.push(JSON.stringify({ ...event, [LINE_COLUMN]: line }));
    this.count++;
    if (this.buffered.length >= 4096) this.flush();
  }

  flush(): void {
    if (this.buffered.length > 0) writeSync(this.fd, this.buffered.join('\n') + '\n');
    this.buffered = [];
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A one-column temp table of line numbers (IN lists get slow past a few thousand). */
async function lineSet(duck: Duck, name: string, lines: number[]): Promise<void> {
  await duck.exec(`CREATE OR REPLACE TEMP TABLE ${name} AS SELECT unnest(${lines.length ? `[${lines.join(',')}]` : '[]::BIGINT[]'})::BIGINT AS line_no`);
}

export interface JsonlLoadOptions {
  /** Rows must carry their physical line number (ad-hoc queries, compaction); reports do not need it. */
  lineNumbers: boolean;
  onBytes?: (bytesRead: number) => void;
}

export async function loadJsonl(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats, options: JsonlLoadOptions): Promise<void> {
  const t0 = performance.now();
  const rescue = new RescueFile();
  try {
    const numbering: Numbering = options.lineNumbers ? 'ordinal' : 'none';
    // Both run at once: DuckDB on its threads, the scan on this one.
    // Settled both: a scan that fails (a .gz cut short) must not leave DuckDB reading while the caller closes it.
    const [read, scanned] = await Promise.allSettled([
      tryExec(duck, typedPassSql(file.path, fileId, keep, numbering)),
      scanLines(file.path, (line, event) => rescue.add(line, event), options.onBytes).finally(() => rescue.close()),
    ]);
    if (scanned.status === 'rejected') throw scanned.reason;
    const failed = read.status === 'fulfilled' ? read.value : (read.reason as Error);
    const scan = scanned.value;
    debug(`load ${file.path}: ${Math.round(performance.now() - t0)} ms, ${scan.lines} lines, ${scan.bad.length} bad, ${scan.rescued} rescued, numbering ${numbering}`);
    if (numbering === 'none' && failed === null && (await unnumberedLinesUp(duck, fileId, scan))) {
      await duck.exec(`UPDATE lines SET valid = false WHERE file_id = ${fileId} AND event IS NULL`);
      record(stats, file, scan);
      return;
    }
    let numberedFailed = failed;
    if (numbering === 'none') {
      debug(`load ${file.path}: reading again with line numbers to apply the scan's verdicts`);
      stats.rereads++;
      await duck.exec(`DELETE FROM lines WHERE file_id = ${fileId}`);
      numberedFailed = await tryExec(duck, typedPassSql(file.path, fileId, keep, 'ordinal'));
    }
    if (numberedFailed !== null || (await fileCount(duck, fileId)) !== scan.lines - scan.blank.length) {
      debug(`load ${file.path}: the reader and the scan disagree (${numberedFailed?.message ?? 'row count'}); reloading from accepted lines`);
      await loadJsonlSlow(duck, file, fileId, keep, stats);
      return;
    }
    if (scan.blank.length > 0) await toPhysicalLines(duck, fileId, scan.blank);
    await lineSet(duck, 'bad_lines', scan.bad.map((b) => b.line));
    await duck.exec(`UPDATE lines SET valid = false WHERE file_id = ${fileId} AND line_no IN (SELECT line_no FROM bad_lines)`);
    if (rescue.count > 0) {
      await duck.exec(`DELETE FROM lines WHERE file_id = ${fileId} AND line_no IN (SELECT line_no FROM read_json(${sqlString(rescue.path)}, format='newline_delimited', columns={${sqlString(LINE_COLUMN)}: 'BIGINT'}) AS r(line_no))`);
      await duck.exec(typedPassSql(rescue.path, fileId, keep, 'field'));
    }
    // Safety net: a row the scan accepted must have been read as an event.
    if ((await fileCount(duck, fileId, 'valid AND event IS NULL')) > 0) {
      debug(`load ${file.path}: accepted lines the reader missed; reloading from accepted lines`);
      await loadJsonlSlow(duck, file, fileId, keep, stats);
      return;
    }
    record(stats, file, scan);
  } finally {
    rescue.remove();
  }
}

/**
 * An unnumbered read is usable when it provably holds exactly the accepted
 * lines plus one all-NULL row per rejected line: nothing rescued, every
 * rejection unreadable to DuckDB too, and the row counts agree. (Accepted
 * lines were proven by the fast check, which only passes JSON DuckDB reads.)
 */
async function unnumberedLinesUp(duck: Duck, fileId: number, scan: LineScan): Promise<boolean> {
  if (scan.rescued > 0) return false;
  const blank = new Set(scan.blank);
  const read = scan.bad.filter((b) => !blank.has(b.line));
  if (!read.every((b) => UNREADABLE.has(b.kind))) return false;
  if ((await fileCount(duck, fileId)) !== scan.lines - scan.blank.length) return false;
  return (await fileCount(duck, fileId, 'event IS NULL')) === read.length;
}

function record(stats: LoadStats, file: TraceFile, scan: LineScan): void {
  stats.linesRead += scan.lines;
  stats.rescued += scan.rescued;
  stats.quarantined.push(...scan.bad.map((b) => ({ file: file.path, ...b })));
}

/**
 * DuckDB numbered only the lines it read; shift each row past the
 * whitespace-only lines before it. The k-th blank line (1-based, physical
 * line b) has b - k read lines before it.
 */
async function toPhysicalLines(duck: Duck, fileId: number, blank: number[]): Promise<void> {
  await lineSet(duck, 'blank_bounds', blank.map((b, i) => b - (i + 1)));
  await duck.exec(`UPDATE lines SET line_no = line_no + (SELECT count(*) FROM blank_bounds b WHERE b.line_no < lines.line_no) WHERE file_id = ${fileId}`);
}

/** The exact path for a file the reader could not follow: parseLine every line, load only the accepted ones. */
async function loadJsonlSlow(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats): Promise<void> {
  await duck.exec(`DELETE FROM lines WHERE file_id = ${fileId}`);
  const clean = new RescueFile();
  try {
    stats.linesRead += await forEachLineBytes(file.path, (buf, start, end, line, unterminated) => {
      const verdict = parseLineBytes(buf.subarray(start, end), unterminated);
      if (verdict.ok) clean.add(line, verdict.event);
      else stats.quarantined.push({ file: file.path, line, kind: verdict.kind, reason: verdict.reason });
    });
    clean.close();
    if (clean.count > 0) await duck.exec(typedPassSql(clean.path, fileId, keep, 'field'));
  } finally {
    clean.remove();
  }
}

function debug(message: string): void {
  if (process.env.FAULTLINE_DEBUG) process.stderr.write(`${message}\n`);
}
