/**
 * Vega-Lite chart specs built from report rows, rendered to SVG at build time
 * (no browser, no network): new vega.View(vega.parse(vl.compile(spec).spec),
 * {renderer: 'none'}).toSVG(). Vega escapes text in the SVG it writes; the
 * result is still checked before it is inlined.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Analysis } from '../analysis/report-model.js';
import { chartSpecs } from './chart-specs.js';

export interface Chart {
  id: string;
  title: string;
  svg: string;
}

export { chartSpecs, symlogTicks } from './chart-specs.js';

/**
 * vega and vega-lite are optional peers (73 packages, 25 MB for a few static
 * SVGs): a plain install leaves them out, and the HTML report says how to add
 * its charts. Loaded on first use, so nothing else pays for them.
 */
export const CHART_PACKAGES = ['vega', 'vega-lite'] as const;

type Renderer = (spec: TopLevelSpec) => Promise<string>;
let renderer: Promise<Renderer | null> | null = null;

function isMissing(error: unknown, pkg: string): boolean {
  const e = error as { code?: string; message?: string };
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && (e.message ?? '').includes(`'${pkg}'`);
}

/** The SVG renderer, or null when vega or vega-lite is not installed. */
export function chartRenderer(): Promise<Renderer | null> {
  renderer ??= (async () => {
    let vega: typeof import('vega');
    let vl: typeof import('vega-lite');
    try {
      [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
    } catch (error) {
      if (CHART_PACKAGES.some((pkg) => isMissing(error, pkg))) return null;
      throw error;
    }
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
    return async (spec: TopLevelSpec) => {
      const view = new vega.View(vega.parse(vl.compile(spec, { logger }).spec), { renderer: 'none' });
      try {
        return await view.toSVG();
      } finally {
        view.finalize();
      }
    };
  })();
  return renderer;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const render = await chartRenderer();
  if (!render) throw new Error(`charts need the optional packages ${CHART_PACKAGES.join(' and ')}`);
  return render(spec);
}

/** True when the SVG has no element or event-handler attribute that could run code (quoted values, where labels live, are skipped). */
export function isPlainSvg(svg: string): boolean {
  const tags = svg.replace(/"[^"]*"/g, '""');
  return !/<(script|foreignObject|iframe|img|a|use)\b/i.test(tags) && !/<[^>]*\son\w+\s*=/i.test(tags);
}

/**
 * Charts with data; an SVG that somehow carries markup beyond SVG is dropped,
 * never inlined. `null` when the chart packages are not installed.
 */
export async function renderCharts(analysis: Analysis): Promise<Chart[] | null> {
  const render = await chartRenderer();
  if (!render) return null;
  const out: Chart[] = [];
  for (const { id, title, spec } of chartSpecs(analysis)) {
    const values = (spec as { data?: { values?: unknown[] } }).data?.values ?? [];
    if (values.length === 0) continue;
    const svg = await render(spec);
    if (!isPlainSvg(svg)) continue;
    out.push({ id, title, svg });
  }
  return out;
}
