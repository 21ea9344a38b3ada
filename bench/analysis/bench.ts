/**
 * Analysis benchmark (issue 15). For each size, in one run, each step in its
 * own process (bench/analysis/step.ts) so each peak RSS is its own:
 *  (a') floor: DuckDB loads the columns the report reads into a table, once;
 *  (b)  the first `faultline report` of the trace: every line checked, rows kept in the row cache;
 *  (n)  the same with --no-cache (nothing kept);
 *  (w') a second report of the unchanged trace with the figures computed again (rows from the row cache);
 *  (w)  another report of the unchanged trace: its figures read back (the figures cache over the row cache);
 *  (p)  a report of the trace compacted to Parquet (`faultline compact`, done beforehand, its time and peak RSS printed);
 *  (g)  after appending new events: the report of the grown trace (only new bytes parsed),
 *       and (g0) the grown trace read afresh, to compare figures.
 * Prints b/a' (target <= 1.5), p/b and w/b (targets <= 0.10 at 10M), how the
 * appended report's extra cost compares with the first report's cost per byte
 * (1 = proportional to the new bytes), peak RSS (target <= 1.5 GB at 10M),
 * and checks that every report figure agrees between b, n, w and p (and g, g0),
 * and per-tool counts and p95 with the floor.
 *
 *   node --import tsx bench/analysis/bench.ts [--out DIR] [events...]     (default: 1000000 10000000)
 *
 * Generated traces and their Parquet files are kept in DIR (default bench/out/analysis) for the next run.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { generateLines, writeTrace } from './generate.js';
import type { CacheStats } from '../../src/analysis/rows/open-rows.js';
import type { StepResult } from './step.js';
import { COMPACT_MEMORY_LIMIT } from '../../src/analysis/compact.js';

const argv = process.argv.slice(2);
const outAt = argv.indexOf('--out');
const OUT = outAt >= 0 ? (argv.splice(outAt, 2)[1] ?? 'bench/out/analysis') : 'bench/out/analysis';
/** Appended events, as a share of the trace. */
const APPEND_SHARE = 0.01;

function step(...args: string[]): StepResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/analysis/step.ts', ...args], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as StepResult;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const show = (label: string, r: StepResult, extra = '') =>
  console.log(`${label.padEnd(58)} ${sec(r.ms).padStart(9)}  cpu ${sec(r.cpuMs).padStart(9)}  peak RSS ${String(r.rssMb).padStart(5)} MB${extra}`);

function differences(a: unknown, b: unknown, path = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) === !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return [`${path}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`];
}

function agree(label: string, a: StepResult, b: StepResult, what: 'report' | 'tools'): boolean {
  const diffs = differences(a[what], b[what]);
  console.log(diffs.length === 0 ? `  ${label}: every ${what === 'report' ? 'report figure' : 'per-tool count and p95'} agrees` : `  MISMATCH ${label}: ${diffs.slice(0, 8).join('; ')}`);
  return diffs.length === 0;
}

function benchSize(events: number): boolean {
  mkdirSync(OUT, { recursive: true });
  const base = `${OUT}/events-${events}.jsonl`;
  const parquet = `${OUT}/events-${events}.parquet`;
  if (!existsSync(base)) {
    const t0 = performance.now();
    writeTrace(base, { events, seed: 42 });
    console.log(`generated ${base} in ${sec(performance.now() - t0)}`);
  }
  // Compacted on every run: its time and peak RSS are figures of the bench (DuckDB held to compact's default memory limit).
  const compacted = step('compact', base, parquet);
  console.log(`compacted ${base} to ${parquet} (${(statSync(parquet).size / 1e6).toFixed(0)} MB) in ${sec(compacted.ms)}, peak RSS ${compacted.rssMb} MB (default --memory-limit ${COMPACT_MEMORY_LIMIT})`);
  // The trace under test is a copy, so appending leaves the generated one intact; the cache starts empty.
  const trace = `${OUT}/work-${events}.jsonl`;
  const cache = `${OUT}/cache-${events}`;
  copyFileSync(base, trace);
  rmSync(cache, { recursive: true, force: true });
  const size = statSync(trace).size;
  execFileSync('cat', [trace], { stdio: ['ignore', 'ignore', 'inherit'] }); // warm the page cache for every step alike
  console.log(`\n== ${events.toLocaleString('en-US')} events, ${(size / 1e9).toFixed(2)} GB ==`);
  const b = step('report', trace, cache);
  show('(b)  first report (every line checked, rows cached)', b);
  const a = step('floor', trace);
  show("(a') floor: DuckDB loads the same columns into a table", a);
  const n = step('report', trace, 'off');
  show('(n)  report with --no-cache', n);
  const wRows = step('report', trace, cache, 'rows-only');
  show("(w') second report, unchanged, figures computed from cached rows", wRows);
  const w = step('report', trace, cache);
  show('(w)  report of the unchanged trace, figures read back', w);
  const p = step('report', parquet, 'off');
  show('(p)  report of the compacted Parquet file', p);
  const lines: string[] = [];
  for (const l of generateLines({ events: Math.round(events * APPEND_SHARE), seed: 7, runId: 'bench-run-appended' })) lines.push(l);
  appendFileSync(trace, lines.join('\n') + '\n');
  const added = statSync(trace).size - size;
  const g = step('report', trace, cache);
  const perByte = (g.ms - wRows.ms) / added / (b.ms / size);
  show(`(g)  report after appending ${lines.length.toLocaleString('en-US')} events (${(added / 1e6).toFixed(1)} MB)`, g);
  const g0 = step('report', trace, 'off');
  show('(g0) the grown trace read afresh (--no-cache)', g0);
  console.log(`ratios: b/a' = ${(b.ms / a.ms).toFixed(2)} (target <= 1.5; n/a' = ${(n.ms / a.ms).toFixed(2)}), p/b = ${(p.ms / b.ms).toFixed(3)} (target <= 0.10), w/b = ${(w.ms / b.ms).toFixed(3)} (target <= 0.10; row cache alone w'/b = ${(wRows.ms / b.ms).toFixed(3)})`);
  const parsed = (r: StepResult) => (r.cache as CacheStats | undefined)?.files.reduce((sum, f) => sum + f.parsedBytes, 0) ?? -1;
  // Appended figures are computed again: the base is the report from cached rows (w'), plus the new bytes at b's cost per byte.
  const proportional = wRows.ms + (b.ms * added) / size;
  console.log(`appended: g = ${sec(g.ms)}; w' + b x (new bytes / size) = ${sec(proportional)}; g / that = ${(g.ms / proportional).toFixed(2)}; (g - w') per new byte = ${perByte.toFixed(2)} x b's per byte [1 = proportional]`);
  console.log(`bytes parsed: w' ${parsed(wRows)}, w ${parsed(w)} (unchanged: 0), g ${parsed(g)} (appended: ${added})${parsed(wRows) === 0 && parsed(w) === 0 && parsed(g) === added ? ' - only the new bytes' : ' - MORE THAN THE NEW BYTES'}`);
  const figuresUse = (r: StepResult) => (r.cache as CacheStats | undefined)?.figures;
  console.log(`figures: b ${figuresUse(b)}, w' ${figuresUse(wRows)}, w ${figuresUse(w)}, g ${figuresUse(g)} (expected stored, off, hit, stored)`);
  console.log(`cpu: b/a' = ${(b.cpuMs / a.cpuMs).toFixed(2)}, n/a' = ${(n.cpuMs / a.cpuMs).toFixed(2)}`);
  console.log(`peak RSS: ${Math.max(b.rssMb, n.rssMb, wRows.rssMb, w.rssMb, p.rssMb, g.rssMb, g0.rssMb)} MB over the reports (target <= 1536 at 10M); faultline compact: ${compacted.rssMb} MB`);
  const ok = [
    agree('b vs --no-cache', b, n, 'report'),
    agree('b vs unchanged (cached rows)', b, wRows, 'report'),
    agree('b vs unchanged (figures read back)', b, w, 'report'),
    agree('b vs Parquet', b, p, 'report'),
    agree('grown: cached vs afresh', g, g0, 'report'),
    agree("b vs floor (a')", b, a, 'tools'),
    parsed(wRows) === 0 && parsed(w) === 0 && parsed(g) === added,
    figuresUse(b) === 'stored' && figuresUse(wRows) === 'off' && figuresUse(w) === 'hit' && figuresUse(g) === 'stored',
  ].every(Boolean);
  rmSync(trace, { force: true });
  rmSync(cache, { recursive: true, force: true });
  return ok;
}

const sizes = argv.map(Number).filter((n) => n > 0);
let ok = true;
for (const n of sizes.length > 0 ? sizes : [1_000_000, 10_000_000]) ok = benchSize(n) && ok;
if (!ok) process.exitCode = 1;
