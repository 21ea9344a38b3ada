/**
 * vega and vega-lite are optional: without them the HTML report is written
 * with every table and a note naming the packages to install for its charts;
 * with them (this repository's devDependencies) it has its SVG charts (`svg`:
 * a chart block; the session view's own timeline is SVG either way).
 */
import { describe, expect, it } from 'vitest';
import { runHidingPackages } from '../helpers/child-node.js';

const script = `
import { analyzeTraces } from './src/analysis/analyze.ts';
import { renderHtml } from './src/report/html.ts';
const html = await renderHtml(await analyzeTraces(['examples/traces/synthetic-small.jsonl']));
process.stdout.write(JSON.stringify({ svg: html.includes('<div class="chart"'), missing: html.includes('id="charts-missing"'), tables: html.includes('<table') }));`;

function html(hide: string) {
  return JSON.parse(runHidingPackages(hide, script)) as { svg: boolean; missing: boolean; tables: boolean };
}

describe('charts are optional', () => {
  it('without vega-lite: every table, no chart, a note naming what to install', { timeout: 150_000 }, () => {
    expect(html('vega-lite')).toEqual({ svg: false, missing: true, tables: true });
  });

  it('with vega and vega-lite: the charts', { timeout: 150_000 }, () => {
    expect(html('')).toEqual({ svg: true, missing: false, tables: true });
  });
});
