/**
 * Loads trace files into DuckDB once; reports read the views made here.
 *
 * Per JSONL file, two DuckDB scans and no JSON parsing in JS:
 *  1. raw lines (read_csv, numbered): physical line count, and the lines whose
 *     key set is wrong (not JSON, not an object, missing/extra/duplicate keys);
 *  2. read_json with every contract column as raw JSON text: value checks
 *     (types, enums, patterns, lengths, ranges) and the typed columns kept.
 * Rejected lines are then explained with parseLine, the same reasons
 * `faultline validate` prints. When a file's two scans do not line up one to
 * one (blank lines, two objects on a line), that file alone falls back to
 * parseLine on every line, so counts stay exact.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { eventColumns, type Column } from '../events/columns.js';
import { CONTRACT_VERSION } from '../events/labels.js';
import { parseLine, type LineProblem } from '../events/parse-line.js';
import { EVENT_NAMES } from '../events/schemas.js';
import { extractSql, sqlType } from './columns-sql.js';
import { sqlString, type Duck } from './duck.js';
import type { TraceFile } from './inputs.js';
import { createLabelTables } from './label-tables.js';
import { forEachLine, readLines } from './line-reader.js';
import { createViews } from './views.js';
import { jsonCol, keysAndEventSql, keysValidSql, valuesValidSql } from './validity-sql.js';

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
  /** Lines the SQL checks rejected but parseLine accepted; their file was reloaded line by line. Diagnostic only. */
  rescued: number;
}

const RAW_LINES = (path: string) =>
  // delim NUL + no quoting: each physical line is one VARCHAR (a blank line is a NULL row).
  `read_csv(${sqlString(path)}, columns={'line': 'VARCHAR'}, header=false, delim='\\0', quote='', escape='', strict_mode=false, auto_detect=false) WITH ORDINALITY AS r(line, n)`;

/** Pass 1: physical line count and the line numbers whose key set is wrong. */
async function rawPass(duck: Duck, path: string): Promise<{ lines: number; bad: number[] }> {
  const [row] = await duck.rows(`SELECT count(*) AS lines, coalesce(list(n ORDER BY n) FILTER (WHERE NOT keys_ok), []) AS bad
    FROM (SELECT n, ${keysValidSql()} AS keys_ok FROM (SELECT n, ${keysAndEventSql()} FROM ${RAW_LINES(path)}))`);
  return { lines: Number(row?.lines ?? 0), bad: ((row?.bad as number[] | null) ?? []).map(Number) };
}

/** Pass 2: every column as raw JSON text, value-checked; rows land in `lines` with their typed columns. */
function typedPassSql(path: string, fileId: number, keep: Column[]): string {
  const all = eventColumns();
  const jsonCols = `{${all.map((c) => `${sqlString(c.name)}: 'JSON'`).join(', ')}}`;
  const staged = all.map((c) => `${jsonCol(c.name)}::VARCHAR AS ${jsonCol(c.name)}`).join(', ');
  const kept = keep.map((c) => `${extractSql(c)} AS "${c.name}"`).join(', ');
  return `INSERT INTO lines SELECT ${fileId}, n, ${valuesValidSql()}, ${kept}
    FROM (SELECT n, ${staged}
          FROM read_json(${sqlString(path)}, format='newline_delimited', columns=${jsonCols}, ignore_errors=true)
          WITH ORDINALITY AS r(${all.map((c) => jsonCol(c.name)).join(', ')}, n))`;
}

async function parquetPassSql(duck: Duck, path: string, fileId: number, keep: Column[]): Promise<string> {
  const present = new Set((await duck.rows(`DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`)).map((r) => String(r.column_name)));
  const cols = keep.map((c) => (present.has(c.name) ? `"${c.name}"` : `NULL::${sqlType(c)}`));
  // Parquet rows were validated when compacted; re-check what would make a report lie.
  const ok = `coalesce(v = ${CONTRACT_VERSION} AND event IN (${EVENT_NAMES.map(sqlString).join(', ')}), false)`;
  return `INSERT INTO lines SELECT ${fileId}, file_row_number + 1, ${ok}, ${cols.join(', ')} FROM read_parquet(${sqlString(path)}, file_row_number=true)`;
}

export async function loadTraces(duck: Duck, files: TraceFile[], keep: Column[]): Promise<LoadStats> {
  await createLabelTables(duck);
  const defs = keep.map((c) => `"${c.name}" ${sqlType(c)}`).join(', ');
  await duck.exec(`CREATE OR REPLACE TABLE lines (file_id INTEGER, line_no BIGINT, valid BOOLEAN, ${defs})`);
  const stats: LoadStats = { files: files.map((f) => f.path), linesRead: 0, eventsUsed: 0, quarantined: [], rescued: 0 };
  for (const [fileId, file] of files.entries()) {
    if (file.format === 'parquet') await loadParquet(duck, file, fileId, keep, stats);
    else await loadJsonl(duck, file, fileId, keep, stats);
  }
  const [counts] = await duck.rows(`SELECT count(*) AS lines, count_if(valid) AS used FROM lines`);
  stats.eventsUsed = Number(counts?.used ?? 0);
  await createViews(duck, keep);
  return stats;
}

async function loadJsonl(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats): Promise<void> {
  const t0 = performance.now();
  const raw = await rawPass(duck, file.path);
  const t1 = performance.now();
  await duck.exec(typedPassSql(file.path, fileId, keep));
  if (process.env.FAULTLINE_DEBUG) process.stderr.write(`load ${file.path}: raw ${Math.round(t1 - t0)} ms, typed ${Math.round(performance.now() - t1)} ms\n`);
  const [typed] = await duck.rows(`SELECT count(*) AS rows FROM lines WHERE file_id = ${fileId}`);
  if (Number(typed?.rows ?? 0) !== raw.lines) {
    await loadJsonlSlow(duck, file, fileId, keep, stats);
    return;
  }
  stats.linesRead += raw.lines;
  const valueBad = (await duck.rows(`SELECT line_no FROM lines WHERE file_id = ${fileId} AND NOT valid`)).map((r) => Number(r.line_no));
  const bad = [...new Set([...raw.bad, ...valueBad])].sort((a, b) => a - b);
  if (bad.length === 0) return;
  const texts = await readLines(file.path, new Set(bad));
  const found: QuarantinedLine[] = [];
  for (const line of bad) {
    const rawLine = texts.get(line) ?? { text: '', unterminated: false };
    const verdict = parseLine(rawLine.text, { unterminated: rawLine.unterminated });
    // parseLine accepts a line the scans rejected (e.g. a broken line swallowed its neighbour):
    // the typed row cannot be trusted, so redo this file the exact way.
    if (verdict.ok) {
      if (process.env.FAULTLINE_DEBUG) process.stderr.write(`rescued ${file.path}:${line}: ${rawLine.text}\n`);
      stats.rescued++;
      stats.linesRead -= raw.lines;
      await loadJsonlSlow(duck, file, fileId, keep, stats);
      return;
    }
    found.push({ file: file.path, line, kind: verdict.kind, reason: verdict.reason });
  }
  stats.quarantined.push(...found);
  if (raw.bad.length > 0) await duck.exec(`UPDATE lines SET valid = false WHERE file_id = ${fileId} AND line_no IN (${raw.bad.join(', ')})`);
}

/** The exact path for a file whose scans disagree: parseLine every line, reload only the good ones. */
async function loadJsonlSlow(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats): Promise<void> {
  await duck.exec(`DELETE FROM lines WHERE file_id = ${fileId}`);
  const dir = mkdtempSync(join(tmpdir(), 'faultline-clean-'));
  const clean = join(dir, 'clean.jsonl');
  const out = createWriteStream(clean);
  try {
    stats.linesRead += await forEachLine(file.path, async (text, line, unterminated) => {
      const verdict = parseLine(text, { unterminated });
      if (!verdict.ok) stats.quarantined.push({ file: file.path, line, kind: verdict.kind, reason: verdict.reason });
      else if (!out.write(JSON.stringify(verdict.event) + '\n')) await once(out, 'drain');
    });
    out.end();
    await once(out, 'finish');
    await duck.exec(typedPassSql(clean, fileId, keep));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loadParquet(duck: Duck, file: TraceFile, fileId: number, keep: Column[], stats: LoadStats): Promise<void> {
  await duck.exec(await parquetPassSql(duck, file.path, fileId, keep));
  const [count] = await duck.rows(`SELECT count(*) AS rows FROM lines WHERE file_id = ${fileId}`);
  stats.linesRead += Number(count?.rows ?? 0);
  const bad = await duck.rows(`SELECT line_no, event, v FROM lines WHERE file_id = ${fileId} AND NOT valid ORDER BY line_no`);
  for (const r of bad) {
    const reason =
      typeof r.v === 'number' && r.v > CONTRACT_VERSION
        ? `contract version v=${r.v} is newer than supported v=${CONTRACT_VERSION}`
        : `unknown event ${JSON.stringify(r.event)}`;
    stats.quarantined.push({ file: file.path, line: Number(r.line_no), kind: 'parquet_row', reason });
  }
}
