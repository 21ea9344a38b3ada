/**
 * Vega-Lite chart specs built from report rows, rendered to SVG at build time
 * (no browser, no network): new vega.View(vega.parse(vl.compile(spec).spec),
 * {renderer: 'none'}).toSVG(). Vega escapes text in the SVG it writes; the
 * result is still checked before it is inlined.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Analysis } from '../analysis/report-model.js';
import { chartSpecs } from './chart-specs.js';

export interface Chart {
  id: string;
  title: string;
  svg: string;
}

export { chartSpecs, symlogTicks } from './chart-specs.js';

/**
 * vega-lite's logger, quiet about one known notice: a chart that fits the
 * page's width (autosize fit-x) with a height per row makes it warn that it
 * drops fit-y, which no chart asks for. Anything else still reaches stderr.
 */
const base = vega.logger(vega.Warn);
const logger = Object.assign(Object.create(base) as typeof base, {
  warn(...args: unknown[]) {
    if (!args.some((a) => typeof a === 'string' && a.startsWith('Dropping "fit-y"'))) base.warn(...args);
    return logger;
  },
});

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec, { logger }).spec), { renderer: 'none' });
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
