/**
 * vega and vega-lite are optional: without them the HTML report is written
 * with every table and a note naming the packages to install for its charts;
 * with them (this repository's devDependencies) it has its SVG charts (`svg`:
 * a chart block; the session view's own timeline is SVG either way).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const script = `
import { analyzeTraces } from './src/analysis/analyze.ts';
import { renderHtml } from './src/report/html.ts';
const html = await renderHtml(await analyzeTraces(['examples/traces/synthetic-small.jsonl']));
process.stdout.write(JSON.stringify({ svg: html.includes('<div class="chart"'), missing: html.includes('id="charts-missing"'), tables: html.includes('<table') }));`;

function html(hide: string) {
  const ran = spawnSync(process.execPath, ['--import', 'tsx', '--import', './tests/helpers/hide-packages.mjs', '--input-type', 'module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FAULTLINE_HIDE_PACKAGES: hide },
    timeout: 120_000,
  });
  expect(ran.status, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout) as { svg: boolean; missing: boolean; tables: boolean };
}

describe('charts are optional', () => {
  it('without vega-lite: every table, no chart, a note naming what to install', { timeout: 150_000 }, () => {
    expect(html('vega-lite')).toEqual({ svg: false, missing: true, tables: true });
  });

  it('with vega and vega-lite: the charts', { timeout: 150_000 }, () => {
    expect(html('')).toEqual({ svg: true, missing: false, tables: true });
  });
});
