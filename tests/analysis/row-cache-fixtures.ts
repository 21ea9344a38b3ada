/**
 * Helpers for the row-cache tests: a varied trace with bad lines of every
 * kind, reports with and without the cache, and the figures to compare.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { analyzeTraces, type AnalyzeOptions } from '../../src/analysis/analyze.js';
import type { Analysis } from '../../src/analysis/report-model.js';
import type { CacheStats } from '../../src/analysis/rows/open-rows.js';
import { toJsonReport } from '../../src/report/json.js';
import { ev, line } from './fixtures.js';

/** Temp directories removed after the file's tests. */
export function scratch(): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), 'faultline-cache-test-'));
    dirs.push(d);
    return d;
  };
}

/** Sessions `from`..`from+n-1` of run `run`: tools, permissions, a defense, expectations; some fail. */
export function sessions(from: number, n: number, run = 'r1'): string[] {
  const out: string[] = [];
  for (let i = from; i < from + n; i++) {
    const s = `s${i}`;
    const r = { run_id: run };
    out.push(
      line({ ...ev.sessionStart(s, ['identical_call_loop']), ...r }),
      line({ ...ev.modelRequest(s), ...r }),
      line({ ...ev.toolCall(s, i % 3 === 0 ? 'bash' : 'read', `t${i}`), ...r }),
      line({ ...ev.permission(s, 'read', `t${i}`, i % 5 === 0 ? 'ask' : 'allow', i % 5 === 0 ? 'user' : 'allow_rule', i % 5 === 0), ...r }),
      line({ ...(i % 4 === 0 ? ev.toolFailure(s, 'read', `t${i}`, 'tool_error', 5 + i) : ev.toolSuccess(s, 'read', `t${i}`, 10 + (i % 17))), ...r }),
      line({ ...ev.defenseStats(s, 'identical_call_loop', 3, i % 7 === 0 ? 1 : 0), ...r }),
      line({ ...ev.expectation(s, 'done', i % 6 !== 0, i % 6 !== 0 ? 'ok' : 'expected a pass'), ...r }),
      line({ ...ev.sessionEnd(s, i % 6 !== 0 ? 'passed' : 'failed'), ...r }),
    );
  }
  return out;
}

/** Bad lines of each way a line can fail: not JSON, blank, a schema violation DuckDB would read, an unknown event. */
export function badLines(): string[] {
  const wrongType = JSON.parse(line(ev.toolSuccess('sx', 'read', 'tx', 1))) as Record<string, unknown>;
  return ['{"v":1, not json', '', line({ ...wrongType, duration_ms: 'slow' }), line({ ...wrongType, event: 'tool_sucess' })];
}

export interface Report {
  analysis: Analysis;
  /** Everything `report --json` prints. */
  figures: unknown;
  cache: CacheStats;
}

export async function report(paths: string[], cache: AnalyzeOptions['cache']): Promise<Report> {
  const analysis = await analyzeTraces(paths, { cache });
  return { analysis, figures: toJsonReport(analysis), cache: analysis.load.cache as CacheStats };
}

/** The row cache as the tests use it: its own directory, every trace kept however small; figures always computed (the row layer is what is tested). */
export const cacheIn = (dir: string): AnalyzeOptions['cache'] => ({ dir, minBytes: 0, figures: false });
export const noCache: AnalyzeOptions['cache'] = { enabled: false };
