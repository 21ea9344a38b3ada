/**
 * The HTML report's charts as drawn (SVG text), from hand-built report rows:
 * whole-number ticks on count axes, full defense names, an unwired defense
 * labelled instead of left as an empty row, and a latency axis with enough
 * spread-out ticks.
 */
import { describe, expect, it } from 'vitest';
import { ShippedDefense } from '../../src/events/labels.js';
import type { Analysis, Section } from '../../src/analysis/report-model.js';
import { chartSpecs, renderSvg, symlogTicks } from '../../src/report/charts.js';

const section = (id: string, columns: string[], rows: Section['rows']): Section => ({ id, title: id, chartOnly: false, columns, rows });

function analysisOf(...sections: Section[]): Analysis {
  return { load: { files: [], inputs: [], copiedRuns: [], linesRead: 0, eventsUsed: 0, rescued: 0, rereads: 0, quarantined: [] }, inputs: [], reports: [{ id: 'r', title: 'r', sections }] };
}

async function chartText(analysis: Analysis, id: string): Promise<string[]> {
  const chart = chartSpecs(analysis).find((c) => c.id === id);
  if (!chart) throw new Error(`no chart ${id}`);
  const svg = await renderSvg(chart.spec);
  // only text actually shown (vega keeps an overlapping label, with opacity 0)
  return [...svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].filter((m) => !/opacity="0"/.test(m[1] ?? '')).map((m) => m[2] ?? '');
}

const failureKinds = section('failure_kinds', ['tool', 'phase', 'failure_kind', 'failures'], [
  { tool: 'read', phase: 'pre_execution', failure_kind: 'invalid_input', failures: 1 },
  { tool: 'bash', phase: 'execution', failure_kind: 'tool_error', failures: 1 },
]);

describe('charts', () => {
  it('count axes tick whole numbers only', async () => {
    const text = await chartText(analysisOf(failureKinds), 'failure_kinds');
    expect(text).toEqual(expect.arrayContaining(['0', '1', 'failures']));
    expect(text.filter((t) => /^\d+\.\d+$/.test(t))).toEqual([]);
    for (const { spec } of chartSpecs(analysisOf(failureKinds))) {
      const axes = JSON.stringify(spec).match(/"format":"d"[^}]*/g) ?? [];
      for (const axis of axes) expect(axis).toContain('"tickMinStep":1');
    }
  });

  it('shows every closed-set defense name whole and says when a defense is unwired', async () => {
    const rows = ShippedDefense.options.map((defense, i) =>
      i === 0 ? { defense, evaluations: 0, triggers: 0, triage: 'unwired' } : { defense, evaluations: 10 * i, triggers: i % 3, triage: i % 3 === 0 ? 'unreached' : 'firing' },
    );
    const text = await chartText(analysisOf(section('defenses', ['defense', 'evaluations', 'triggers', 'triage'], rows)), 'defenses');
    for (const name of ShippedDefense.options) expect(text).toContain(name);
    expect(text.filter((t) => t.includes('…'))).toEqual([]);
    expect(text.filter((t) => t === '0 evaluations — unwired')).toHaveLength(1);
  });

  it('spreads latency ticks 1-2-5 per decade up to past the slowest call, labelled as whole numbers', async () => {
    expect(symlogTicks(1243)).toEqual([0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000]);
    expect(symlogTicks(500)).toEqual([0, 1, 2, 5, 10, 20, 50, 100, 200, 500]);
    expect(symlogTicks(0.4)).toEqual([0, 1]);
    const latency = section('tool_latency', ['tool', 'p50_ms_of_executed', 'p95_ms_of_executed', 'p99_ms_of_executed'], [
      { tool: 'read', p50_ms_of_executed: 40, p95_ms_of_executed: 400, p99_ms_of_executed: 1500 },
      { tool: 'bash', p50_ms_of_executed: 3, p95_ms_of_executed: 900, p99_ms_of_executed: 1200 },
    ]);
    const text = await chartText(analysisOf(latency), 'latency');
    const ticks = text.filter((t) => /^[\d,]+$/.test(t));
    expect(ticks.length).toBeGreaterThanOrEqual(8);
    expect(ticks).toEqual(expect.arrayContaining(['1', '10', '100', '500', '1,000', '2,000']));
  });
});
