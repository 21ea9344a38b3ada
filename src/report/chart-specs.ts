/**
 * The Vega-Lite specs of the HTML report's charts, built from report rows.
 * Every chart spans the page's content width (CHART_WIDTH, axes and legend
 * included); per-tool latency gets an overview on one shared scale and a
 * small multiple per tool, each on its own y scale, so a tool with one call
 * is as readable as one with a thousand.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Analysis } from '../analysis/report-model.js';
import { findSection } from '../analysis/report-model.js';
import type { Row } from '../analysis/duck.js';
import { triageLevel } from './triage.js';

type Rows = Record<string, unknown>[];
const rowsOf = (analysis: Analysis, id: string): Rows => (findSection(analysis, id)?.rows ?? []) as Rows;

/** Width (px) of every chart, axes and legend included: the page's content width (html-style.ts). */
export const CHART_WIDTH = 1160;
/** Per-tool small multiples in a row. */
const FACET_COLUMNS = 4;
/** Height (px) of one tool's row in a one-row-per-tool chart. */
const ROW = 18;
/** Room for a whole label: tool names and the closed-set defense names are never cut. */
const CONFIG = { axisY: { labelLimit: 360 }, legend: { orient: 'top' as const, labelLimit: 320 } };
/** Counts are whole numbers: no 0.2 ticks. */
const COUNT_AXIS = { format: 'd', tickMinStep: 1 };
/** The whole width, axes and legend included. */
const FIT = { width: CHART_WIDTH, autosize: { type: 'fit-x' as const, contains: 'padding' as const } };
/** One colour per latency quantile, the same in both latency charts. */
const QUANTILES = { domain: ['p50', 'p95', 'p99', 'max'], range: ['#2e8b57', '#f28e2b', '#d62728', '#555'] };
/** A log scale cannot hold 0 ms: the fastest call is drawn at this. */
const MIN_MS = 0.1;

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

/** A symlog x encoding whose axis ends on its last tick, labelled centred on each tick; a label that would overlap one is dropped. */
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

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const maxOf = (rows: Rows, field: string): number => Math.max(1, ...rows.map((r) => num(r[field])));

export interface ChartSpec {
  id: string;
  title: string;
  spec: TopLevelSpec;
}

/** p50, p95, p99 and max per tool on one shared scale: a line from p50 to max, a dot per quantile. */
function latencyOverview(analysis: Analysis): ChartSpec {
  const tools = rowsOf(analysis, 'tool_latency');
  const order = tools.map((r) => r.tool);
  const points = tools.flatMap((r) => (['p50', 'p95', 'p99', 'max'] as const).map((q) => ({ tool: r.tool, quantile: q, ms: r[`${q}_ms_of_executed`] })));
  const y = { field: 'tool', type: 'nominal', sort: order, title: null };
  return {
    id: 'latency',
    title: 'Per-tool latency: p50 · p95 · p99 · max (ms, executed calls; one shared symlog scale, slowest p95 first)',
    spec: {
      config: CONFIG,
      ...FIT,
      height: { step: ROW },
      data: { values: points },
      layer: [
        {
          transform: [{ aggregate: [{ op: 'min', field: 'ms', as: 'from' }, { op: 'max', field: 'ms', as: 'to' }], groupby: ['tool'] }],
          mark: { type: 'rule', color: '#bbb' },
          encoding: { y, x: symlogX('from', maxOf(points, 'ms'), 'ms'), x2: { field: 'to' } },
        },
        {
          mark: { type: 'point', filled: true, size: 60 },
          encoding: { y, x: symlogX('ms', maxOf(points, 'ms'), 'ms'), color: { field: 'quantile', type: 'nominal', scale: QUANTILES, title: null } },
        },
      ],
    } as TopLevelSpec,
  };
}

/** One small multiple per tool: its histogram and its p50/p95/p99, each on its own count scale. */
function latencyPerTool(analysis: Analysis): ChartSpec {
  // one executed call has no distribution: the overview shows it
  const tools = rowsOf(analysis, 'tool_latency').filter((r) => num(r.executed_calls) >= 2);
  const order = tools.map((r) => r.tool);
  const bins = rowsOf(analysis, 'latency_histogram').filter((r) => order.includes(r.tool)).map((r) => ({ ...r, kind: 'bin' }));
  const quantiles = tools.flatMap((r) =>
    (['p50', 'p95', 'p99'] as const).map((q) => ({ tool: r.tool, kind: 'quantile', quantile: q, ms: Math.max(MIN_MS, num(r[`${q}_ms_of_executed`])) })),
  );
  const cell = Math.floor(CHART_WIDTH / FACET_COLUMNS) - 60;
  const x = { type: 'quantitative', scale: { type: 'log' }, title: 'ms', axis: { format: ',~r', tickCount: 4 } };
  return {
    id: 'latency_per_tool',
    title: 'Per-tool latency, each tool on its own y scale: executed calls per log-spaced bin, with p50 · p95 · p99 (tools with 2+ executed calls)',
    spec: {
      config: CONFIG,
      data: { values: bins.length > 0 ? [...bins, ...quantiles] : [] },
      facet: { field: 'tool', type: 'nominal', sort: order, title: null, header: { labelLimit: cell + 50, labelFontWeight: 'bold' } },
      columns: FACET_COLUMNS,
      spec: {
        width: cell,
        height: 70,
        layer: [
          {
            transform: [{ filter: "datum.kind === 'bin'" }],
            mark: { type: 'rect', color: '#9cb9d9' },
            encoding: { x: { ...x, field: 'bin_from_ms' }, x2: { field: 'bin_to_ms' }, y: { field: 'executed_calls', type: 'quantitative', title: null, axis: COUNT_AXIS } },
          },
          {
            transform: [{ filter: "datum.kind === 'quantile'" }],
            mark: { type: 'rule', strokeWidth: 2 },
            encoding: { x: { ...x, field: 'ms' }, color: { field: 'quantile', type: 'nominal', scale: QUANTILES, title: null } },
          },
        ],
      },
      resolve: { scale: { y: 'independent' } },
    } as TopLevelSpec,
  };
}

export function chartSpecs(analysis: Analysis): ChartSpec[] {
  const funnelOrder = rowsOf(analysis, 'tool_funnel').filter((r) => r.tool !== '(all tools)');
  const funnel = funnelOrder.flatMap((r) =>
    [
      ['successes', r.successes],
      ['failures before execution', r.failures_pre_execution],
      ['failures in execution', r.failures_execution],
      // In flight when the run was killed (absent in figures cached before it).
      ['cut short', r.cut_short ?? 0],
      ['lost', r.lost],
    ].map(([stage, count], i) => ({ tool: r.tool, stage, stage_order: i, count })),
  );
  const stages = ['successes', 'failures before execution', 'failures in execution', 'cut short', 'lost'];
  // defenses with something to show: evaluated, triggered, or a class that needs a look (unwired has no bar, so it gets a label)
  const defenseRows = rowsOf(analysis, 'defenses').filter((r) => num(r.evaluations) > 0 || num(r.triggers) > 0 || triageLevel(r.triage, r as Row) !== null);
  const defenses = defenseRows.flatMap((r) => [
    { defense: r.defense, triage: r.triage, measure: 'evaluations', count: r.evaluations },
    { defense: r.defense, triage: r.triage, measure: 'triggers', count: r.triggers },
  ]);
  return [
    latencyOverview(analysis),
    latencyPerTool(analysis),
    {
      id: 'funnel',
      title: 'Tool funnel: each tool’s calls as successes, failures before and in execution, cut short (run killed), and lost (must be 0)',
      spec: {
        config: CONFIG,
        ...FIT,
        height: { step: ROW },
        data: { values: funnel },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', sort: funnelOrder.map((r) => r.tool), title: null },
          x: { field: 'count', type: 'quantitative', aggregate: 'sum', title: 'calls', axis: COUNT_AXIS },
          color: { field: 'stage', type: 'nominal', sort: stages, scale: { domain: stages, range: ['#54a24b', '#f58518', '#e45756', '#a0aec0', '#000'] }, title: null },
          order: { field: 'stage_order', sort: 'ascending' },
        },
      } as TopLevelSpec,
    },
    {
      id: 'failure_kinds',
      title: 'Failure kinds per tool (stacked; pre-execution and execution kinds)',
      spec: {
        config: CONFIG,
        ...FIT,
        data: { values: rowsOf(analysis, 'failure_kinds') },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', sort: '-x', title: null },
          x: { field: 'failures', type: 'quantitative', aggregate: 'sum', title: 'failures', axis: COUNT_AXIS },
          color: { field: 'failure_kind', type: 'nominal', title: null },
        },
      },
    },
    {
      id: 'defenses',
      title: 'Defense triggers vs evaluations (symlog scale; defenses needing a look first)',
      spec: {
        config: CONFIG,
        ...FIT,
        data: { values: defenses },
        encoding: { y: { field: 'defense', type: 'nominal', sort: defenseRows.map((r) => r.defense), title: null } },
        layer: [
          {
            mark: 'bar',
            encoding: {
              yOffset: { field: 'measure' },
              x: symlogX('count', maxOf(defenses, 'count'), 'count'),
              color: { field: 'measure', type: 'nominal', title: null },
            },
          },
          {
            // a defense never evaluated has no bar at all: say so on its row, with its class
            transform: [{ filter: "datum.measure === 'evaluations' && datum.count === 0" }],
            mark: { type: 'text', align: 'left', dx: 4, color: '#b00', fontWeight: 'bold' },
            encoding: { x: { field: 'count', type: 'quantitative' }, text: { field: 'label' } },
          },
        ],
        transform: [{ calculate: "'0 evaluations — ' + datum.triage", as: 'label' }],
      } as TopLevelSpec,
    },
  ];
}
