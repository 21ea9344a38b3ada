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
      { defense: r.defense, measure: 'evaluations', count: r.evaluations },
      { defense: r.defense, measure: 'triggers', count: r.triggers },
    ]);
  const specs: { id: string; title: string; spec: TopLevelSpec }[] = [
    {
      id: 'latency',
      title: 'Per-tool latency p50 / p95 / p99 (ms, executed calls)',
      spec: {
        data: { values: latency },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', sort: null, title: null },
          yOffset: { field: 'quantile', sort: ['p50', 'p95', 'p99'] },
          x: { field: 'ms', type: 'quantitative', scale: { type: 'symlog' }, title: 'ms' },
          color: { field: 'quantile', type: 'nominal', sort: ['p50', 'p95', 'p99'] },
        },
      },
    },
    {
      id: 'failure_kinds',
      title: 'Failure kinds per tool (stacked; pre-execution and execution kinds)',
      spec: {
        data: { values: rowsOf(analysis, 'failure_kinds') },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', title: null },
          x: { field: 'failures', type: 'quantitative', aggregate: 'sum', title: 'failures' },
          color: { field: 'failure_kind', type: 'nominal' },
        },
      },
    },
    {
      id: 'funnel',
      title: 'Tool funnel: calls, successes, failures, lost',
      spec: {
        data: { values: funnel },
        mark: 'bar',
        encoding: {
          y: { field: 'tool', type: 'nominal', title: null },
          yOffset: { field: 'stage', sort: ['calls', 'successes', 'failures', 'lost'] },
          x: { field: 'count', type: 'quantitative' },
          color: { field: 'stage', type: 'nominal', sort: ['calls', 'successes', 'failures', 'lost'] },
        },
      },
    },
    {
      id: 'defenses',
      title: 'Defense triggers vs evaluations (symlog scale)',
      spec: {
        data: { values: defenses },
        mark: 'bar',
        encoding: {
          y: { field: 'defense', type: 'nominal', title: null },
          yOffset: { field: 'measure' },
          x: { field: 'count', type: 'quantitative', scale: { type: 'symlog' } },
          color: { field: 'measure', type: 'nominal' },
        },
      },
    },
    {
      id: 'latency_histogram',
      title: 'Latency histogram per tool (executed calls, log-spaced bins)',
      spec: {
        data: { values: rowsOf(analysis, 'latency_histogram') },
        facet: { row: { field: 'tool', type: 'nominal', title: null } },
        spec: {
          width: 420,
          height: 60,
          mark: 'rect',
          encoding: {
            x: { field: 'bin_from_ms', type: 'quantitative', scale: { type: 'log' }, title: 'ms' },
            x2: { field: 'bin_to_ms' },
            y: { field: 'executed_calls', type: 'quantitative', title: 'calls' },
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
