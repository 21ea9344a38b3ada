/**
 * The reports of a real run as a person reads them: `faultline run
 * suites/demo suites/faults` (every fault scenario, so every section has
 * rows) and a demo-only run to diff it against. The terminal report and the
 * diff fit 100 columns on a terminal and lead with what is wrong; the HTML report, opened
 * in Chromium at 1280 px, never scrolls sideways, links every section from
 * its table of contents and names the run in its header. A full-page
 * screenshot is kept in test-artifacts/ (git-ignored) for a person to look at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { DEFAULT_SECTION_BUDGET } from '../../src/analysis/reports.js';
import { renderSectionLines } from '../../src/report/terminal.js';
import { cli } from '../cli/cli-io.js';
import { HAVE_CHROMIUM, sharedBrowser } from './chromium.js';
import { tempDir } from './fixtures.js';

const WIDTH = 100;
const ARTIFACTS = resolve('test-artifacts/report-html');

let dir: string;
let trace: string;
let base: string;

const tooWide = (text: string) => text.split('\n').filter((l) => [...l].length > WIDTH);

beforeAll(async () => {
  dir = tempDir();
  trace = join(dir, 'demo-faults.jsonl');
  base = join(dir, 'demo.jsonl');
  // A task that fails on a loaded machine (the MCP timing scenarios) still leaves a full trace to read: the exit code is not the point here.
  for (const [suites, out] of [[['suites/demo', 'suites/faults'], trace], [['suites/demo'], base]] as const) {
    const { stdout } = await cli(['run', ...suites, '--out', out]);
    expect(stdout).toContain(`trace: ${out}`);
  }
}, 300_000);

describe('the terminal report of the demo and fault suites', () => {
  it('fits 100 columns, leads with the verdict in one screen, and cuts long sections to their failing rows', async () => {
    // read on a terminal: a pipe gets whole lines (tests/cli/unwrapped-output.test.ts)
    const { code, stdout } = await cli(['report', trace], { isTTY: true });
    expect(code).toBe(0);
    expect(tooWide(stdout)).toEqual([]);
    const lines = stdout.split('\n');
    const verdict = lines.findIndex((l) => l.startsWith('Verdict '));
    const firstTable = lines.findIndex((l) => l.startsWith('┌'));
    expect(verdict).toBeGreaterThan(0);
    expect(firstTable - verdict).toBeLessThanOrEqual(40); // the verdict is one screen
    expect(stdout).toMatch(/^Verdict (✓ nothing wrong found|✗ \d+ problems?|! \d+ warnings?)/m);
    expect(stdout).toMatch(/Expectations per id[^\n]*\n(?:[┌│├└][^\n]*\n)* {2}… \d+ more ids, none failing, none with failures \(failing = [^)]*count > 0\)\n/);
    // was 760 lines before the report led with a verdict and cut long sections; the length is now the sum of what
    // each section may take (its own `-- budget:`), so a new section brings its lines with it
    const analysis = await analyzeTraces([trace], { cache: { enabled: false } });
    const shown = analysis.reports.flatMap((r) => r.sections).filter((s) => !s.chartOnly && !s.header && s.rows.length > 0);
    const allowed = firstTable + shown.reduce((n, s) => n + (s.budget ?? DEFAULT_SECTION_BUDGET) + 1, 0) + 5;
    expect(lines.length).toBeLessThanOrEqual(allowed);
  });

  it('keeps each section within its own terminal line budget (`-- budget: N` in its SQL, else the default)', async () => {
    const analysis = await analyzeTraces([trace], { cache: { enabled: false } });
    const over: string[] = [];
    for (const report of analysis.reports) {
      for (const section of report.sections) {
        if (section.chartOnly || section.header || section.rows.length === 0) continue;
        const lines = renderSectionLines(section, { color: false, width: WIDTH }).length;
        const budget = section.budget ?? DEFAULT_SECTION_BUDGET;
        if (lines > budget) over.push(`${report.id}/${section.id}: ${lines} lines, budget ${budget}`);
      }
    }
    expect(over).toEqual([]);
  });

  it('diff against the demo run fits 100 columns and reads base → candidate', async () => {
    const { code, stdout } = await cli(['diff', base, trace], { isTTY: true });
    expect(code).toBe(0);
    expect(tooWide(stdout)).toEqual([]);
    expect(stdout).toMatch(/^ {2}passed +11 → \d+$/m);
    expect(stdout).toContain('only in candidate: ');
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the HTML report of the demo and fault suites at 1280 px', () => {
  const browser = sharedBrowser();

  it('has no sideways scroll, a table of contents linking every section, and the run named in its header', async () => {
    const out = join(dir, 'html');
    expect((await cli(['report', trace, '--html', out])).code).toBe(0);
    const file = join(out, 'index.html');
    const traceLines = readFileSync(trace, 'utf8').split('\n').filter((l) => l !== '');
    const runId = (JSON.parse(traceLines[0] ?? '{}') as { run_id: string }).run_id;
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      const seen = (await page.evaluate(`(() => {
        const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.innerText.trim());
        const box = (el) => el.getBoundingClientRect();
        return {
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
          headings: [...document.querySelectorAll('body [id]')].map((e) => e.id),
          links: [...document.querySelectorAll('nav.toc a')].map((a) => a.getAttribute('href')),
          header: Object.fromEntries([...document.querySelectorAll('header table.meta tr')].map((tr) => [tr.querySelector('th').innerText.trim(), tr.querySelector('td').innerText.trim()])),
          verdictTop: box(document.querySelector('#verdict')).top,
          charts: [...document.querySelectorAll('div.chart svg')].map((svg) => Math.round(box(svg).width)),
          content: Math.round(box(document.querySelector('nav.toc')).width),
          // inside a chart only the svg itself counts (its groups may reach past their clip)
          tooWide: [...document.querySelectorAll('body *')].filter((e) => box(e).right > document.documentElement.clientWidth + 1 && !e.closest('.table, details') && !e.closest('svg > *')).map((e) => e.tagName + (e.id ? '#' + e.id : '')),
        };
      })()`)) as {
        scrollWidth: number;
        clientWidth: number;
        headings: string[];
        links: string[];
        header: Record<string, string>;
        verdictTop: number;
        charts: number[];
        content: number;
        tooWide: string[];
      };
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'demo-faults-1280.png'), fullPage: true });
      await page.screenshot({ path: join(ARTIFACTS, 'demo-faults-1280-first-screen.png') });

      expect(seen.scrollWidth).toBeLessThanOrEqual(seen.clientWidth);
      expect(seen.tooWide).toEqual([]);
      // every section, report and chart is one click from the contents, and every link lands
      expect(seen.headings.length).toBeGreaterThan(30);
      for (const id of seen.headings.filter((h) => h !== 'contents')) expect(seen.links, id).toContain(`#${id}`);
      for (const link of seen.links) expect(seen.headings.map((h) => `#${h}`), link).toContain(link);
      // the header names the run, its suites, provider, model, dates and the input with its lines and run
      expect(seen.header.run).toMatch(new RegExp(`^${runId} · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d → \\d\\d:\\d\\d:\\d\\d UTC$`));
      expect(seen.header.suites).toMatch(/^demo, faults-/);
      expect(seen.header.provider).toBe('mock');
      expect(seen.header.model).toBe('mock-scripted');
      expect(seen.header.inputs).toBe(`${trace} · ${traceLines.length} lines · run ${runId}`);
      expect(seen.verdictTop).toBeLessThan(600); // the verdict is on the first screen
      // charts span the content column
      expect(seen.charts.length).toBeGreaterThanOrEqual(5);
      for (const width of seen.charts) expect(width).toBeGreaterThan(seen.content * 0.85);
    } finally {
      await context.close();
    }
  }, 120_000);
});
