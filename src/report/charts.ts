/**
 * Vega-Lite chart specs built from report rows, rendered to SVG at build time
 * (no browser, no network): new vega.View(vega.parse(vl.compile(spec).spec),
 * {renderer: 'none'}).toSVG(). Vega escapes text in the SVG it writes; the
 * result is still checked before it is inlined.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Analysis } from '../analysis/report-model.js';
import { findSection } from '../analysis/report-model.js';

export interface Chart {
  id: string;
  title: string;
  svg: string;
}

type Rows = Record<string, unknown>[];
const rowsOf = (analysis: Analysis, id: string): Rows => (findSection(analysis, id)?.rows ?? []) as Rows;

/** Plot width (px) of every chart; labels and legend come on top. */
const WIDTH = 560;
/** Thickness (px) of one bar in a grouped bar chart (vega-lite's 20 makes a tool's group of four 80 px tall). */
const BAR = 12;
/** Room for a whole label: tool names and the closed-set defense names are never cut (vega estimates ~0.8 em per character). */
const CONFIG = { axisY: { labelLimit: 360 } };
/** Counts are whole numbers: no 0.2 ticks. */
const COUNT_AXIS = { format: 'd', tickMinStep: 1 };

/** 0, 1, 2, 5, 10, 20, 50, … up to the first step at or above `max`: ticks a symlog axis spreads evenly, as integers. */
export function symlogTicks(max: number): number[] {
  const ticks = [0];
  for (let decade = 1; ticks[ticks.length - 1]! < max; decade *= 10) {
    for (const step of [1, 2, 5]) {
      ticks.push(step * decade);
      if (step * decade >= max) break;
    }
  }
  return ticks;
}

/** A symlog x encoding whose axis ends on its last tick, labelled centred on each tick (vega-lite flushes the end label inwards, onto its neighbour); a label that would still overlap one is dropped, never squeezed. */
function symlogX(field: string, max: number, title: string | null): Record<string, unknown> {
  const values = symlogTicks(max);
  return {
    field,
    type: 'quantitative',
    title,
    scale: { type: 'symlog', domain: [0, values[values.length - 1]], nice: false },
    axis: { values, format: ',d', labelOverlap: 'greedy', labelFlush: false },
  };
}

const maxOf = (rows: Rows, field: string): number => Math.max(1, ...rows.map((r) => (typeof r[field] === 'number' ? (r[field] as number) : 0)));

export function chartSpecs(analysis: Analysis): { id: string; title: string; spec: TopLevelSpec }[] {
  const latency = rowsOf(analysis, 'tool_latency').flatMap((r) =>
    (['p50', 'p95', 'p99'] as const).map((q) => ({ tool: r.tool, quantile: q, ms: r[`${q}_ms_of_executed`] })),
  );
  const funnel = rowsOf(analysis, 'tool_funnel')
    .filter((r) => r.tool !== '(all tools)')
    .flatMap((r) => ['calls', 'successes', 'failures', 'lost'].map((stage) => ({ tool: r.tool, stage, count: r[stage] })));
  const defenses = rowsOf(analysis, 'defenses')
    .filter((r) => r.triage !== 'disarmed')
    .flatMap((r) => [
      { defense: r.defense, triage: r.triage, measure: 'evaluations', count: r.evaluations },
      { defense: r.defense, triage: r.triage, measure: 'triggers', count: r.triggers },
    ]);
  const specs: { id: string; title: string; spec: TopLevelSpec }[] = [
    {
      id: 'latency',
      title: 'Per-tool latency p50 / p95 / p99 (ms, executed calls; symlog scale)',
      spec: {
        config: CONFIG,
        width: WIDTH,
        height: { step: BAR },
        data: { values: latency },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', sort: null, title: null },
          yOffset: { field: 'quantile', sort: ['p50', 'p95', 'p99'] },
          x: symlogX('ms', maxOf(latency, 'ms'), 'ms'),
          color: { field: 'quantile', type: 'nominal', sort: ['p50', 'p95', 'p99'] },
        },
      },
    },
    {
      id: 'failure_kinds',
      title: 'Failure kinds per tool (stacked; pre-execution and execution kinds)',
      spec: {
        config: CONFIG,
        width: WIDTH,
        data: { values: rowsOf(analysis, 'failure_kinds') },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', sort: null, title: null },
          x: { field: 'failures', type: 'quantitative', aggregate: 'sum', title: 'failures', axis: COUNT_AXIS },
          color: { field: 'failure_kind', type: 'nominal' },
        },
      },
    },
    {
      id: 'funnel',
      title: 'Tool funnel: calls, successes, failures, lost',
      spec: {
        config: CONFIG,
        width: WIDTH,
        height: { step: BAR },
        data: { values: funnel },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', sort: null, title: null },
          yOffset: { field: 'stage', sort: ['calls', 'successes', 'failures', 'lost'] },
          x: { field: 'count', type: 'quantitative', axis: COUNT_AXIS },
          color: { field: 'stage', type: 'nominal', sort: ['calls', 'successes', 'failures', 'lost'] },
        },
      },
    },
    {
      id: 'defenses',
      title: 'Defense triggers vs evaluations (symlog scale)',
      spec: {
        config: CONFIG,
        width: WIDTH,
        data: { values: defenses },
        encoding: { y: { field: 'defense', type: 'nominal', sort: null, title: null } },
        layer: [
          {
            mark: 'bar',
            encoding: {
              yOffset: { field: 'measure' },
              x: symlogX('count', maxOf(defenses, 'count'), 'count'),
              color: { field: 'measure', type: 'nominal' },
            },
          },
          {
            // an unwired defense has no bar at all: say so on its row
            transform: [{ filter: "datum.triage === 'unwired' && datum.measure === 'evaluations'" }],
            mark: { type: 'text', align: 'left', dx: 4, color: '#b00', fontWeight: 'bold' },
            encoding: { x: { field: 'count', type: 'quantitative' }, text: { value: '0 evaluations — unwired' } },
          },
        ],
      },
    },
    {
      id: 'latency_histogram',
      title: 'Latency histogram per tool (executed calls per log-spaced bin)',
      spec: {
        config: CONFIG,
        data: { values: rowsOf(analysis, 'latency_histogram') },
        facet: { row: { field: 'tool', type: 'nominal', title: null } },
        spec: {
          width: WIDTH,
          height: 60,
          mark: 'rect',
          encoding: {
            x: { field: 'bin_from_ms', type: 'quantitative', scale: { type: 'log' }, title: 'ms', axis: { format: ',~r' } },
            x2: { field: 'bin_to_ms' },
            y: { field: 'executed_calls', type: 'quantitative', title: null, axis: COUNT_AXIS },
          },
        },
      },
    },
  ];
  return specs;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** True when the SVG has no element or event-handler attribute that could run code (quoted values, where labels live, are skipped). */
export function isPlainSvg(svg: string): boolean {
  const tags = svg.replace(/"[^"]*"/g, '""');
  return !/<(script|foreignObject|iframe|img|a|use)\b/i.test(tags) && !/<[^>]*\son\w+\s*=/i.test(tags);
}

/** Charts with data; an SVG that somehow carries markup beyond SVG is dropped, never inlined. */
export async function renderCharts(analysis: Analysis): Promise<Chart[]> {
  const out: Chart[] = [];
  for (const { id, title, spec } of chartSpecs(analysis)) {
    const values = (spec as { data?: { values?: unknown[] } }).data?.values ?? [];
    if (values.length === 0) continue;
    const svg = await renderSvg(spec);
    if (!isPlainSvg(svg)) continue;
    out.push({ id, title, svg });
  }
  return out;
}
