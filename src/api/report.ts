/** `report()` and `diff()`: what `faultline report --json` and `faultline diff --json` print, as data. */
import { analyzeTraces } from '../analysis/analyze.js';
import { diffAnalyses, type DiffResult } from '../analysis/diff.js';
import { toJsonReport } from '../report/json.js';
import { jsonDocument } from '../report/json-format.js';

export interface ReportOptions {
  /** Directory relative paths and globs are resolved from (default: the working directory). */
  cwd?: string;
}

/** Every report over trace files, directories or globs: the document `faultline report --json` prints. */
export async function report(paths: string | readonly string[], options: ReportOptions = {}) {
  const analysis = await analyzeTraces(typeof paths === 'string' ? [paths] : [...paths], { ...(options.cwd ? { cwd: options.cwd } : {}) });
  return toJsonReport(analysis) as { format_version: number; reconciliation: { lines_read: number; events_used: number; lines_quarantined: number; text: string } } & Record<string, unknown>;
}

export interface DiffApiOptions extends ReportOptions {
  /** Relative p95 increase that counts as a regression (default 0.2 = +20%). */
  p95Threshold?: number;
}

/** Two runs compared: the document `faultline diff --json` prints, plus `regressed` (what `--fail-on-regression` gates on). */
export async function diff(base: string | readonly string[], candidate: string | readonly string[], options: DiffApiOptions = {}) {
  const list = (p: string | readonly string[]) => (typeof p === 'string' ? [p] : [...p]);
  const analyze = { ...(options.cwd ? { cwd: options.cwd } : {}) };
  const result: DiffResult = diffAnalyses(await analyzeTraces(list(base), analyze), await analyzeTraces(list(candidate), analyze), { p95Threshold: options.p95Threshold ?? 0.2 });
  return jsonDocument({ ...result, regressed: result.regressions.length > 0 });
}
