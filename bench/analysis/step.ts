/**
 * One measured step of the analysis benchmark, in its own process so its
 * peak RSS is its own. Prints one JSON line: wall ms, CPU ms (every thread,
 * DuckDB's included), peak RSS, and what the driver compares.
 *
 *   node --import tsx bench/analysis/step.ts report <trace> <cache dir | off> [rows-only]
 *   node --import tsx bench/analysis/step.ts floor <trace>
 *   node --import tsx bench/analysis/step.ts compact <trace> <out.parquet>
 */
import { analyzeTraces, chooseStorage, reportColumns } from '../../src/analysis/analyze.js';
import { compactTraces } from '../../src/analysis/compact.js';
import { Duck, sqlString } from '../../src/analysis/duck.js';
import { sqlType } from '../../src/analysis/columns-sql.js';
import type { QuarantinedLine } from '../../src/analysis/load.js';
import { findSection, type InputFile } from '../../src/analysis/report-model.js';
import { EXECUTION_FAILURE_KINDS } from '../../src/events/labels.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { toJsonReport } from '../../src/report/json.js';

export interface ToolFigures {
  calls: number;
  successes: number;
  failures: number;
  executed: number;
  p95: number | null;
}

export interface StepResult {
  ms: number;
  cpuMs: number;
  rssMb: number;
  /** Per-tool counts and p95. */
  tools: Record<string, ToolFigures>;
  /** report: the whole JSON report except the input file names. */
  report?: unknown;
  cache?: unknown;
}

const executed = `event = 'tool_success' OR failure_kind IN (${EXECUTION_FAILURE_KINDS.map((k) => `'${k}'`).join(', ')})`;

/** (a') the columns the report reads, loaded into a table once (the least "load once, report from the table" costs), then per-tool figures from it. */
async function floor(path: string): Promise<Omit<StepResult, 'ms' | 'cpuMs' | 'rssMb'>> {
  const keep = reportColumns();
  const cols = keep.map((c) => `${sqlString(c.name)}: ${sqlString(sqlType(c))}`);
  const duck = await Duck.open({ storage: chooseStorage([{ path, format: 'jsonl' }]) });
  try {
    await duck.exec(`CREATE TABLE t AS SELECT * FROM read_json(${sqlString(path)}, format='newline_delimited', columns={${cols.join(', ')}})`);
    const rows = await duck.rows(`
      SELECT tool, count(*) FILTER (WHERE event = 'tool_call') AS calls, count(*) FILTER (WHERE event = 'tool_success') AS successes,
             count(*) FILTER (WHERE event = 'tool_failure') AS failures, count(*) FILTER (WHERE ${executed}) AS executed,
             quantile_cont(duration_ms, 0.95) FILTER (WHERE ${executed}) AS p95
      FROM t WHERE tool IS NOT NULL GROUP BY tool`);
    const tools: Record<string, ToolFigures> = {};
    for (const r of rows) tools[String(r.tool)] = { calls: Number(r.calls), successes: Number(r.successes), failures: Number(r.failures), executed: Number(r.executed), p95: r.p95 as number | null };
    return { tools };
  } finally {
    duck.close();
  }
}

/** (b) what `faultline report` does: analyze (through the row cache unless `off`; `rows-only`: figures always computed) and render for the terminal. */
async function report(path: string, cache: string, layer?: string): Promise<Omit<StepResult, 'ms' | 'cpuMs' | 'rssMb'>> {
  const analysis = await analyzeTraces([path], { cache: cache === 'off' ? { enabled: false } : { dir: cache, figures: layer !== 'rows-only' } });
  renderTerminal(analysis, { color: false });
  const tools: Record<string, ToolFigures> = {};
  for (const r of findSection(analysis, 'tool_funnel')?.rows ?? []) {
    if (r.tool !== '(all tools)') tools[String(r.tool)] = { calls: Number(r.calls), successes: Number(r.successes), failures: Number(r.failures), executed: Number(r.executed), p95: null };
  }
  for (const r of findSection(analysis, 'tool_latency')?.rows ?? []) {
    const t = tools[String(r.tool)];
    if (t) t.p95 = r.p95_ms_of_executed as number;
  }
  // The file names differ between the trace, its Parquet and the cache's pieces; every figure must not.
  const { files: _files, inputs, quarantine, ...figures } = toJsonReport(analysis) as { files: unknown; inputs: InputFile[]; quarantine: QuarantinedLine[] };
  const unnamed = {
    ...figures,
    inputs: inputs.map(({ path: _path, ...input }) => input),
    quarantine: quarantine.map(({ file: _file, ...line }) => line),
  };
  return { tools, report: unnamed, cache: analysis.load.cache };
}

const [kind, path, arg, layer] = process.argv.slice(2) as [string, string, string, string | undefined];
const c0 = process.cpuUsage();
const t0 = performance.now();
const out = kind === 'floor' ? await floor(path) : kind === 'compact' ? (await compactTraces([path], arg), { tools: {} }) : await report(path, arg, layer);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const result: StepResult = { ms, cpuMs: (cpu.user + cpu.system) / 1000, rssMb: Math.round(process.resourceUsage().maxRSS / 1024), ...out };
process.stdout.write(JSON.stringify(result) + '\n');
