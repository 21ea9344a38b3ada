/**
 * Loads trace files into DuckDB once; reports read the views made here.
 *
 * A JSONL file is read twice at the same time: DuckDB parses the typed
 * columns the reports need on its own threads (leniently, ignoring errors),
 * while JS judges every line exactly as `parseLine()` does (line-scan.ts).
 * The JS verdicts then mark the quarantined rows invalid and rebuild the rows
 * of lines the lenient reader may have read differently. When the two do not
 * line up one to one (DuckDB failed, or a line it split differently), that
 * file alone is reloaded from the lines parseLine accepted, so counts stay exact.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Column } from '../events/columns.js';
import { CONTRACT_VERSION } from '../events/labels.js';
import { type LineProblem } from '../events/parse-line.js';
import type { FaultlineEvent } from '../events/schemas.js';
import { EVENT_NAMES } from '../events/schemas.js';
import { forEachLineBytes, parseLineBytes } from '../events/trace-lines.js';
import { sqlType } from './columns-sql.js';
import { sqlString, type Duck } from './duck.js';
import type { TraceFile } from './inputs.js';
import { createLabelTables } from './label-tables.js';
import { scanLines } from '../events/line-scan.js';
import { createViews } from './views.js';

export interface QuarantinedLine {
  file: string;
  line: number;
  kind: LineProblem | 'parquet_row';
  reason: string;
}

export interface LoadStats {
  files: string[];
  linesRead: number;
  eventsUsed: number;
  quarantined: QuarantinedLine[];
  /** Accepted lines the fast check could not prove, so their rows were rebuilt from parseLine's event. Diagnostic only. */
  rescued: number;
}

const LINE_COLUMN = '__line';

/** Typed rows of a JSONL file, numbered by the reader (whitespace-only lines are skipped, so not yet physical line numbers). */
function typedPassSql(path: string, fileId: number, keep: Column[], numbered: 'ordinal' | 'field'): string {
  const cols = keep.map((c) => `${sqlString(c.name)}: ${sqlString(sqlType(c))}`);
  if (numbered === 'field') cols.push(`${sqlString(LINE_COLUMN)}: 'BIGINT'`);
  const names = keep.map((c) => `"${c.name}"`).join(', ');
  const reader = `read_json(${sqlString(path)}, format='newline_delimited', columns={${cols.join(', ')}}, ignore_errors=true)`;
  return numbered === 'ordinal'
    ? `INSERT INTO lines SELECT ${fileId}, n, true, ${names} FROM ${reader} WITH ORDINALITY AS r(${names}, n)`
    : `INSERT INTO lines SELECT ${fileId}, "${LINE_COLUMN}", true, ${names} FROM ${reader}`;
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

export interface LoadProgress {
  bytesRead: number;
  bytesTotal: number;
}

export async function loadTraces(duck: Duck, files: TraceFile[], keep: Column[], onProgress?: (progress: LoadProgress) => void): Promise<LoadStats> {
  const sizes = files.map((f) => statSync(f.path).size);
  const bytesTotal = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  await createLabelTables(duck);
  const defs = keep.map((c) => `"${c.name}" ${sqlType(c)}`).join(', ');
  await duck.exec(`CREATE OR REPLACE TABLE lines (file_id INTEGER, line_no BIGINT, valid BOOLEAN, ${defs})`);
  const stats: LoadStats = { files: files.map((f) => f.path), linesRead: 0, eventsUsed: 0, quarantined: [], rescued: 0 };
  for (const [fileId, file] of files.entries()) {
    const onBytes = onProgress && ((bytesRead: number) => onProgress({ bytesRead: before + bytesRead, bytesTotal }));
    if (file.format === 'parquet') await loadParquet(duck, file, fileId, keep, stats);
    else await loadJsonl(duck, file, fileId, keep, stats, onBytes);
    before += sizes[fileId] ?? 0;
    onProgress?.({ bytesRead: before, bytesTotal });
  }
  const [counts] = await duck.rows(`SELECT count(*) AS lines, count_if(valid) AS used FROM lines`);
  stats.eventsUsed = Number(counts?.used ?? 0);
  await createViews(duck, keep);
  return stats;
}

async function loadJsonl(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats, onBytes?: (bytesRead: number) => void): Promise<void> {
  const t0 = performance.now();
  const rescue = new RescueFile();
  try {
    // Both run at once: DuckDB on its threads, the scan on this one.
    const [typed, scan] = await Promise.all([
      duck.exec(typedPassSql(file.path, fileId, keep, 'ordinal')).then(
        () => null,
        (error: unknown) => error as Error,
      ),
      scanLines(file.path, (line, event) => rescue.add(line, event), onBytes),
    ]);
    rescue.close();
    debug(`load ${file.path}: ${Math.round(performance.now() - t0)} ms, ${scan.lines} lines, ${scan.bad.length} bad, ${scan.rescued} rescued`);
    const [count] = await duck.rows(`SELECT count(*) AS rows FROM lines WHERE file_id = ${fileId}`);
    if (typed !== null || Number(count?.rows ?? 0) !== scan.lines - scan.blank.length) {
      debug(`load ${file.path}: the reader and the scan disagree (${typed?.message ?? `${count?.rows} rows`}); reloading from accepted lines`);
      await loadJsonlSlow(duck, file, fileId, keep, stats);
      return;
    }
    stats.linesRead += scan.lines;
    if (scan.blank.length > 0) await toPhysicalLines(duck, fileId, scan.blank);
    const bad = scan.bad;
    stats.rescued += scan.rescued;
    stats.quarantined.push(...bad.map((b) => ({ file: file.path, ...b })));
    await lineSet(duck, 'bad_lines', bad.map((b) => b.line));
    await duck.exec(`UPDATE lines SET valid = false WHERE file_id = ${fileId} AND line_no IN (SELECT line_no FROM bad_lines)`);
    if (rescue.count > 0) {
      await duck.exec(`DELETE FROM lines WHERE file_id = ${fileId} AND line_no IN (SELECT line_no FROM read_json(${sqlString(rescue.path)}, format='newline_delimited', columns={${sqlString(LINE_COLUMN)}: 'BIGINT'}) AS r(line_no))`);
      await duck.exec(typedPassSql(rescue.path, fileId, keep, 'field'));
    }
    // Safety net: a row the scan accepted must have been read as an event.
    const [unread] = await duck.rows(`SELECT count(*) AS n FROM lines WHERE file_id = ${fileId} AND valid AND event IS NULL`);
    if (Number(unread?.n ?? 0) > 0) {
      debug(`load ${file.path}: ${unread?.n} accepted lines the reader missed; reloading from accepted lines`);
      stats.linesRead -= scan.lines;
      stats.quarantined = stats.quarantined.filter((q) => q.file !== file.path);
      await loadJsonlSlow(duck, file, fileId, keep, stats);
    }
  } finally {
    rescue.remove();
  }
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

async function loadParquet(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats): Promise<void> {
  const source = `read_parquet(${sqlString(file.path)}, file_row_number=true)`;
  const present = new Set((await duck.rows(`DESCRIBE SELECT * FROM ${source}`)).map((r) => String(r.column_name)));
  const cols = keep.map((c) => (present.has(c.name) ? `"${c.name}"` : `NULL::${sqlType(c)}`));
  const v = present.has('v') ? 'v' : 'NULL::BIGINT';
  // Parquet rows were validated when compacted; re-check what would make a report lie.
  const ok = `coalesce(${v} = ${CONTRACT_VERSION} AND event IN (${EVENT_NAMES.map(sqlString).join(', ')}), false)`;
  await duck.exec(`INSERT INTO lines SELECT ${fileId}, file_row_number + 1, ${ok}, ${cols.join(', ')} FROM ${source}`);
  const [count] = await duck.rows(`SELECT count(*) AS rows FROM lines WHERE file_id = ${fileId}`);
  stats.linesRead += Number(count?.rows ?? 0);
  const bad = await duck.rows(`SELECT file_row_number + 1 AS line_no, event, ${v} AS v FROM ${source} WHERE NOT ${ok} ORDER BY line_no`);
  for (const r of bad) {
    const reason =
      typeof r.v === 'number' && r.v > CONTRACT_VERSION
        ? `contract version v=${r.v} is newer than supported v=${CONTRACT_VERSION}`
        : `unknown event ${JSON.stringify(r.event)}`;
    stats.quarantined.push({ file: file.path, line: Number(r.line_no), kind: 'parquet_row', reason });
  }
}
