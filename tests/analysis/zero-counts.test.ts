/**
 * A count over zero rows is 0, never null (DuckDB's count_if and sum give
 * NULL over an empty table). `—` (null) is only for a value that is truly
 * undefined: a rate or share whose denominator is 0, a percentile, maximum or
 * per-unit figure over no values (README, "Reports").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { cli } from '../cli/cli-io.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

/** Columns whose value is undefined over no rows: rates, shares, percentiles, maxima and per-unit figures. */
const UNDEFINED_OVER_NOTHING = /(^|_)(rate|share)(_|$)|(^|_)p\d\d(_|$)|(^|_)max(_|$)|_per_/;
/** The report header's identity text that is undefined without the events it names: the wires and models of model_request events. */
/**
 * ... and the deferred-loading bytes, which exist only where some model_request measured
 * `deferred_tools_bytes` (traces before the field, imports): null is "not recorded", not 0 saved.
 */
const TEXT_OVER_NOTHING = new Set(['run_identity.request_providers', 'run_identity.request_models', 'run_identity.transports', 'deferred_loading.definition_bytes_saved', 'deferred_loading.net_benefit_bytes']);

const runStart = { v: 1, ts: 1_700_000_000_000, seq: 0, run_id: 'r1', event: 'run_start', suite: 's', provider: 'mock', model: 'm', faultline_version: '0', node_version: 'v20', config_hash: 'h', tasks: 1 };

/** A clean run: sessions that pass, with no permission decision, provider error, expectation, MCP server or lab check. */
function cleanRun(): string {
  return writeTrace(tempDir(), 'clean.jsonl', [line(runStart), line(ev.sessionStart('s1')), line(ev.modelRequest('s1')), line(ev.modelResponse('s1', 'end_turn')), line(ev.sessionEnd('s1', 'passed'))]);
}

describe('counts over zero rows', () => {
  const traces: [string, () => string][] = [
    ['a clean run', cleanRun],
    ['a run with no session', () => writeTrace(tempDir(), 'bare.jsonl', [line(runStart)])],
    ['an empty trace', () => writeTrace(tempDir(), 'empty.jsonl', ['not an event'])],
  ];
  for (const [name, trace] of traces) {
    it(`are 0 in every section of ${name}; null only where a value is undefined`, async () => {
      const analysis = await analyzeTraces([trace()]);
      const nulls: string[] = [];
      for (const report of analysis.reports) {
        for (const section of report.sections) {
          for (const row of section.rows) for (const column of section.columns) if (row[column] === null && !UNDEFINED_OVER_NOTHING.test(column) && !TEXT_OVER_NOTHING.has(`${section.id}.${column}`)) nulls.push(`${section.id}.${column}`);
        }
      }
      expect(nulls).toEqual([]);
    });
  }

  it('prints 0 for permission decisions, retried errors and failed expectations, as decisions does', async () => {
    const json = JSON.parse((await cli(['report', cleanRun(), '--json'])).stdout) as { reports: Record<string, Record<string, { rows: Record<string, unknown>[] }>> };
    expect(json.reports.permission_funnel?.permission_summary?.rows[0]).toMatchObject({ decisions: 0, prompted: 0, allowed: 0, asked: 0, denied: 0, prompt_rate_of_decisions: null });
    expect(json.reports.model_calls?.model_summary?.rows[0]).toMatchObject({ errors: 0, errors_retried: 0, retry_rate_of_errors: null });
    expect(json.reports.expectations?.expectation_summary?.rows[0]).toMatchObject({ checked: 0, failed: 0, fail_rate_of_checked: null });
    const text = (await cli(['report', cleanRun()])).stdout;
    // the terminal lays a one-row summary out as metric/value pairs: each section from its title to the blank line after it
    const section = (title: string) => text.slice(text.indexOf(`\n${title} (`)).split('\n\n')[0] ?? '';
    expect(section('Model calls')).toMatch(/(^|\s)errors_retried +0(\s|$)/);
    expect(section('Permission decisions')).toMatch(/(^|\s)denied +0(\s|$)/);
    expect(section('Expectations')).toMatch(/(^|\s)failed +0(\s|$)/);
  });

  it('are never count_if in the report SQL (NULL over zero rows in DuckDB): count(*) FILTER (WHERE ...) is 0', () => {
    const dir = new URL('../../src/analysis/sql/', import.meta.url);
    const offenders = readdirSync(dir).filter((f) => f.endsWith('.sql') && /\bcount_if\s*\(/i.test(readFileSync(new URL(f, dir), 'utf8').replace(/--[^\n]*/g, '')));
    expect(offenders).toEqual([]);
  });
});
