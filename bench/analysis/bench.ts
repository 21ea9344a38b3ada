/**
 * Analysis benchmark (issue 3). For each size, in one process and one run:
 *  (a) floor: DuckDB parses every column the report needs once, computing per-tool counts + p95 as it goes;
 *  (a') the same columns loaded into a table once, which is what the report must do before its SQL runs;
 *  (b) the full `faultline report` (load with contract checks + quarantine, every report, rendering);
 *  (c) baseline: Node readline + JSON.parse computing the same per-tool counts and p95.
 * Prints events/s, the ratios b/a and c/b, peak RSS, and checks (b) and (c) agree exactly.
 *
 *   node --import tsx bench/analysis/bench.ts [events...]     (default: 1000000 10000000)
 */
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Duck, sqlString } from '../../src/analysis/duck.js';
import { chooseStorage, openTraces } from '../../src/analysis/analyze.js';
import type { Analysis } from '../../src/analysis/report-model.js';
import { columnsUsedBy, sqlType } from '../../src/analysis/columns-sql.js';
import { allReportSql, runAllReports } from '../../src/analysis/reports.js';
import { findSection } from '../../src/analysis/report-model.js';
import { EXECUTION_FAILURE_KINDS } from '../../src/events/labels.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { writeTrace } from './generate.js';

interface ToolFigures {
  calls: number;
  successes: number;
  failures: number;
  executed: number;
  p95: number | null;
}
type Figures = Map<string, ToolFigures>;

/** DuckDB's quantile_cont: linear interpolation at RN = (n - 1) * q, written lo * (1 - d) + hi * d as DuckDB 1.5 computes it (bit-exact). */
export function quantileCont(sorted: Float64Array, q: number): number | null {
  if (sorted.length === 0) return null;
  const rn = (sorted.length - 1) * q;
  const lo = Math.floor(rn);
  const hi = Math.ceil(rn);
  const a = sorted[lo] as number;
  if (lo === hi) return a;
  const d = rn - lo;
  return a * (1 - d) + (sorted[hi] as number) * d;
}

const EXECUTION = new Set<string>(EXECUTION_FAILURE_KINDS);

const executedFilter = `event = 'tool_success' OR failure_kind IN (${[...EXECUTION].map((k) => `'${k}'`).join(', ')})`;
/**
 * Per-tool figures in one aggregate. Non-tool events fall in the NULL-tool
 * group (dropped by toFigures) rather than a WHERE, so `extra` can also
 * aggregate over every line in the same pass.
 */
const perToolSql = (from: string, extra = '') => `
  SELECT tool,
         count(*) FILTER (WHERE event = 'tool_call') AS calls,
         count(*) FILTER (WHERE event = 'tool_success') AS successes,
         count(*) FILTER (WHERE event = 'tool_failure') AS failures,
         count(*) FILTER (WHERE ${executedFilter}) AS executed,
         quantile_cont(duration_ms, 0.95) FILTER (WHERE ${executedFilter}) AS p95${extra}
  FROM ${from}
  GROUP BY tool`;
const toFigures = (rows: Record<string, unknown>[]): Figures =>
  new Map(rows.filter((r) => r.tool !== null && Number(r.calls) + Number(r.successes) + Number(r.failures) > 0).map((r) => [String(r.tool), { calls: Number(r.calls), successes: Number(r.successes), failures: Number(r.failures), executed: Number(r.executed), p95: r.p95 as number | null }]));

/** The columns the full report reads, typed, as DuckDB's reader takes them. */
function neededColumnsReader(path: string): string {
  const cols = columnsUsedBy(allReportSql()).map((c) => `${sqlString(c.name)}: ${sqlString(sqlType(c))}`);
  return `read_json('${path}', format='newline_delimited', columns={${cols.join(', ')}})`;
}

/** (a) DuckDB parses every column the report needs, once, and aggregates as it goes. */
async function floorStream(path: string): Promise<{ ms: number; figures: Figures }> {
  const t0 = performance.now();
  const duck = await Duck.open();
  try {
    // count() of every needed column keeps the reader from skipping any (projection pushdown).
    const touch = columnsUsedBy(allReportSql()).map((c) => `count("${c.name}")`).join(' + ');
    const rows = await duck.rows(perToolSql(neededColumnsReader(path), `, ${touch} AS cells`));
    return { ms: performance.now() - t0, figures: toFigures(rows) };
  } finally {
    duck.close();
  }
}

/** (a') the same columns loaded into a table once (what "load once, every report reads the table" costs), then the per-tool figures from it. */
async function floorLoad(path: string): Promise<{ ms: number; figures: Figures }> {
  const t0 = performance.now();
  const duck = await Duck.open({ storage: chooseStorage([{ path, format: 'jsonl' }]) });
  try {
    await duck.exec(`CREATE TABLE t AS SELECT * FROM ${neededColumnsReader(path)}`);
    return { ms: performance.now() - t0, figures: toFigures(await duck.rows(perToolSql('t'))) };
  } finally {
    duck.close();
  }
}

/** (b) what `faultline report` does (analyzeTraces, then the terminal renderer), timed by phase. */
async function fullReport(path: string): Promise<{ ms: number; phases: string; figures: Figures; quarantined: number }> {
  const t0 = performance.now();
  const { duck, load } = await openTraces([path], { columns: 'reports' });
  const t1 = performance.now();
  let analysis: Analysis;
  try {
    analysis = { load, inputs: load.inputs, reports: await runAllReports(duck) };
  } finally {
    duck.close();
  }
  const t2 = performance.now();
  renderTerminal(analysis, { color: false });
  const ms = performance.now() - t0;
  const phases = `load ${((t1 - t0) / 1000).toFixed(2)} s + reports ${((t2 - t1) / 1000).toFixed(2)} s + render ${((ms - (t2 - t0)) / 1000).toFixed(2)} s`;
  const figures: Figures = new Map();
  for (const r of findSection(analysis, 'tool_funnel')?.rows ?? []) {
    if (r.tool === '(all tools)') continue;
    figures.set(String(r.tool), { calls: Number(r.calls), successes: Number(r.successes), failures: Number(r.failures), executed: Number(r.executed), p95: null });
  }
  for (const r of findSection(analysis, 'tool_latency')?.rows ?? []) {
    const f = figures.get(String(r.tool));
    if (f) f.p95 = r.p95_ms_of_executed as number;
  }
  return { ms, phases, figures, quarantined: analysis.load.quarantined.length };
}

async function readlineBaseline(path: string): Promise<{ ms: number; figures: Figures }> {
  const t0 = performance.now();
  const counts = new Map<string, { calls: number; successes: number; failures: number; durations: number[] }>();
  const of = (tool: string) => {
    let c = counts.get(tool);
    if (!c) counts.set(tool, (c = { calls: 0, successes: 0, failures: 0, durations: [] }));
    return c;
  };
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of rl) {
    const e = JSON.parse(line) as { event: string; tool: string; duration_ms: number; failure_kind?: string };
    if (e.event === 'tool_call') of(e.tool).calls++;
    else if (e.event === 'tool_success') {
      const c = of(e.tool);
      c.successes++;
      c.durations.push(e.duration_ms);
    } else if (e.event === 'tool_failure') {
      const c = of(e.tool);
      c.failures++;
      if (EXECUTION.has(e.failure_kind ?? '')) c.durations.push(e.duration_ms);
    }
  }
  const figures: Figures = new Map();
  for (const [tool, c] of counts) {
    const sorted = Float64Array.from(c.durations).sort();
    figures.set(tool, { calls: c.calls, successes: c.successes, failures: c.failures, executed: sorted.length, p95: quantileCont(sorted, 0.95) });
  }
  return { ms: performance.now() - t0, figures };
}

function compare(a: Figures, b: Figures): string[] {
  const diffs: string[] = [];
  for (const tool of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(tool);
    const y = b.get(tool);
    if (!x || !y) diffs.push(`${tool}: missing on one side`);
    else for (const k of ['calls', 'successes', 'failures', 'executed', 'p95'] as const) if (x[k] !== y[k]) diffs.push(`${tool}.${k}: ${x[k]} vs ${y[k]}`);
  }
  return diffs;
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const rate = (n: number, ms: number) => `${Math.round(n / (ms / 1000)).toLocaleString('en-US')} events/s`;

async function benchSize(events: number): Promise<void> {
  mkdirSync('bench/out/analysis', { recursive: true });
  const path = `bench/out/analysis/events-${events}.jsonl`;
  if (!existsSync(path)) {
    const t0 = performance.now();
    writeTrace(path, { events, seed: 42 });
    console.log(`generated ${path} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const lines = Number(((await import('node:child_process')).execFileSync('wc', ['-l', path]).toString().trim().split(/\s+/)[0]));
  console.log(`\n== ${lines.toLocaleString('en-US')} events, ${(statSync(path).size / 1e9).toFixed(2)} GB ==`);
  // The report runs first so the peak RSS printed after it is its own (maxRSS only grows); `wc -l` above warmed the page cache.
  const b = await fullReport(path);
  console.log(`(b)  full faultline report:                          ${(b.ms / 1000).toFixed(2)} s, ${rate(lines, b.ms)}, peak RSS ${peakRssMb()} MB (target <= 1536 at 10M), quarantined ${b.quarantined}`);
  console.log(`     (${b.phases})`);
  const a = await floorStream(path);
  console.log(`(a)  floor, DuckDB parses the report's columns once:   ${(a.ms / 1000).toFixed(2)} s, ${rate(lines, a.ms)}`);
  const a2 = await floorLoad(path);
  console.log(`(a') the same columns loaded into a table once:       ${(a2.ms / 1000).toFixed(2)} s, ${rate(lines, a2.ms)}`);
  const c = await readlineBaseline(path);
  console.log(`(c)  readline + JSON.parse baseline:                  ${(c.ms / 1000).toFixed(2)} s, ${rate(lines, c.ms)}`);
  console.log(`ratios: b/a = ${(b.ms / a.ms).toFixed(2)} (target <= 1.5), b/a' = ${(b.ms / a2.ms).toFixed(2)}, c/b = ${(c.ms / b.ms).toFixed(2)} (target >= 10), c/a = ${(c.ms / a.ms).toFixed(2)} (no report that parses the file can beat this c/b)`);
  const bc = compare(b.figures, c.figures);
  const ab = [...compare(a.figures, b.figures), ...compare(a2.figures, b.figures)];
  console.log(bc.length === 0 ? `(b) and (c) agree exactly on per-tool counts and p95 (${b.figures.size} tools)` : `MISMATCH (b) vs (c): ${bc.slice(0, 10).join('; ')}`);
  console.log(ab.length === 0 ? '(a) and (b) agree exactly too' : `MISMATCH (a) vs (b): ${ab.slice(0, 10).join('; ')}`);
  if (bc.length > 0) process.exitCode = 1;
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const n of sizes.length > 0 ? sizes : [1_000_000, 10_000_000]) await benchSize(n);
