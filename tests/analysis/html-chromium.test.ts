/**
 * The HTML report as a person (and an attacker) meets it: `faultline report
 * --html` output opened from file:// in real headless Chromium (Debian's
 * /usr/bin/chromium, driven by playwright-core). A hostile trace puts XSS
 * payloads everywhere the event contract allows free text, in event names,
 * keys and non-JSON lines that end up quarantined, and in the trace's own
 * path. The page must run no script, open no dialog, fetch nothing but
 * itself, log no console error (a CSP-blocked injection logs one), draw its
 * charts and show the quarantine, the failed expectation's detail and every
 * payload as literal text.
 *
 * Each page is checked twice: as shipped (its CSP meta in force) and with
 * CSP bypassed, so that escaping alone is shown to hold, not just the CSP.
 * A control page with the same payloads unescaped proves the checks fail.
 *
 * Without /usr/bin/chromium the suite skips locally and fails under CI.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/report/html.js';
import { reportForFiles } from '../../src/report/report-for-files.js';
import { ACTIVE_ELEMENTS, HAVE_CHROMIUM, INSTALL_HINT, IN_CI, sharedBrowser } from './chromium.js';
import { ev, line, tempDir } from './fixtures.js';

if (!HAVE_CHROMIUM && !IN_CI) console.warn(`[html-chromium] skipped: ${INSTALL_HINT}`);

/** Each one would run script, open a dialog, fetch, or restyle the page if it reached the DOM as markup. */
const PAYLOADS = [
  '<script>window.__pwned=1</script>',
  '"><img src=x onerror="window.__pwned=1">',
  '</svg><script>window.__pwned=1</script>',
  "'><svg onload=alert(1)>",
  '</code></li></ul><iframe src="javascript:window.__pwned=1"></iframe>',
  '<link rel=stylesheet href="http://example.invalid/x.css">',
  '<style>body{display:none}</style>',
  '`${alert(2)}`',
  '&lt;script&gt; stays &amp;lt;', // already-escaped text is shown as written, not decoded
] as const;

interface PageCheck {
  pwned: unknown;
  dialogs: string[];
  /** Every request the page made, allowed or not. */
  requests: string[];
  consoleErrors: string[];
  /** Tag names of elements that could run or fetch something: script, iframe, img, link, a (but a link to an anchor of the page), on* handlers... */
  activeElements: string[];
}

/**
 * Opens `file` in a fresh context with every request routed: only the file
 * itself may load, anything else is recorded and aborted. `look` reads what
 * a test wants from the page before it closes; tests assert afterwards, the
 * security record first.
 */
async function openPage<T>(browser: Browser, file: string, bypassCSP: boolean, look: (page: Page) => Promise<T>): Promise<{ check: PageCheck; seen: T }> {
  const url = pathToFileURL(file).href;
  const context = await browser.newContext({ bypassCSP, viewport: { width: 1280, height: 900 } });
  try {
    const check: PageCheck = { pwned: undefined, dialogs: [], requests: [], consoleErrors: [], activeElements: [] };
    await context.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
    context.on('request', (r) => check.requests.push(r.url()));
    const page = await context.newPage();
    page.on('dialog', (d) => {
      check.dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') check.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => check.consoleErrors.push(`pageerror: ${e.message}`));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(100); // let late handlers (timers, async errors) fire
    // Page-side code as strings: the project's tsconfig has no DOM lib.
    check.pwned = await page.evaluate('window.__pwned');
    check.activeElements = (await page.evaluate(ACTIVE_ELEMENTS)) as string[];
    const seen = await look(page);
    return { check, seen };
  } finally {
    await context.close();
  }
}

const nothing = async (): Promise<null> => null;
/** The report's own head: two meta tags (charset, CSP) and nothing else that can fetch or run. */
const REPORT_HEAD = ['meta', 'meta'];

/** The hostile trace: contract-valid lines with payloads in every free-text field, plus lines that are quarantined because of them. */
function hostileTrace(): { file: string; pathPayloads: string[] } {
  // The trace's path is shown too. A file name cannot hold '/', so directories supply it:
  // .../a</  svg><script>window.__pwned=1<  script>.jsonl  reads as  a</svg><script>window.__pwned=1</script>.jsonl
  const dir = join(tempDir(), '"><img src=x onerror="window.__pwned=1">', 'a<', 'svg><script>window.__pwned=1<');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'script>.jsonl');
  const pathPayloads = ['"><img src=x onerror="window.__pwned=1">', 'a</svg><script>window.__pwned=1</script>.jsonl'];
  const p = (i: number) => PAYLOADS[i % PAYLOADS.length] as string;
  const s = p(0); // session ids are free text (1-128 chars)
  const events = [
    { ...ev.sessionStart(s, ['identical_call_loop'], { scenario: p(1), task_id: p(2) }), run_id: p(3) },
    { ...ev.modelRequest(s), provider: p(4).slice(0, 64), model: p(5), prefix_hash: p(6) },
    ev.modelResponse(s, 'tool_use', { stop_reason: p(7) }),
    ev.toolCall(s, 'read', p(1)),
    ev.toolSuccess(s, 'read', p(1), 12),
    ev.toolCall(s, 'read', p(2)),
    ev.toolSuccess(s, 'read', p(2), 340),
    ev.toolCall(s, 'bash', p(3)),
    { ...ev.toolFailure(s, 'bash', p(3), 'timeout', 3000), error_code: p(4).slice(0, 64) },
    ev.toolCall(s, 'bash', p(8)),
    ev.toolSuccess(s, 'bash', p(8), 45),
    // a hallucinated tool: the label '<unknown>' itself must come out as text in tables and charts
    ev.toolCall(s, '<unknown>', p(5), { requested_tool: p(0) }),
    ev.toolFailure(s, '<unknown>', p(5), 'not_found', 1),
    { ...ev.permission(s, 'bash', p(6), 'deny', 'deny_rule', false), rule_id: p(2) },
    ev.defenseTrigger(s, 'identical_call_loop', { tool: 'bash' }),
    ev.defenseStats(s, 'identical_call_loop', 4, 1),
    ev.expectation(s, p(1), false, PAYLOADS.join(' ')),
    ev.sessionEnd(s, 'failed'),
  ].map(line);
  const quarantined = [
    ...PAYLOADS.map((pl) => line({ ...ev.toolCall(s, 'read', 'q'), event: pl })), // unknown event "<payload>"
    line({ ...ev.toolCall(s, 'read', 'q'), [PAYLOADS[3]]: 1 }), // unrecognized key "<payload>"
    PAYLOADS[0], // not JSON at all
  ];
  writeFileSync(file, [...events, ...quarantined].join('\n') + '\n');
  return { file, pathPayloads };
}

// CI must not pass by skipping: there a missing Chromium is a failed test.
it.runIf(IN_CI && !HAVE_CHROMIUM)('Chromium is installed (CI is set)', () => {
  throw new Error(`CI is set and ${INSTALL_HINT} (.ci/run installs it)`);
});

describe.skipIf(!HAVE_CHROMIUM)(`HTML report in headless Chromium${HAVE_CHROMIUM ? '' : ` (skipped: ${INSTALL_HINT})`}`, () => {
  const browser = sharedBrowser();

  it('the checks catch an injection: the same payloads unescaped run script, open dialogs and fetch', async () => {
    const dir = tempDir();
    const page = (text: (s: string) => string) =>
      `<!doctype html><html><head><meta charset="utf-8">` +
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` +
      `</head><body><ul>${PAYLOADS.map((pl) => `<li><code>${text(pl)}</code></li>`).join('')}</ul></body></html>`;
    const raw = join(dir, 'raw.html');
    writeFileSync(raw, page((s) => s));
    const escaped = join(dir, 'escaped.html');
    writeFileSync(escaped, page(escapeHtml));

    // CSP bypassed: only escaping stands in the way, and here there is none.
    const { check: bypassed } = await openPage(browser(), raw, true, nothing);
    expect(bypassed.pwned).toBe(1);
    expect(bypassed.dialogs.length).toBeGreaterThan(0);
    expect(bypassed.requests.filter((u) => u !== pathToFileURL(raw).href).length).toBeGreaterThan(0);
    expect(bypassed.activeElements).toEqual(expect.arrayContaining(['script', 'img', 'iframe', 'link']));
    // CSP in force: nothing runs, but every blocked attempt is a console error.
    const { check: shipped } = await openPage(browser(), raw, false, nothing);
    expect(shipped.pwned).toBeUndefined();
    expect(shipped.consoleErrors.join('\n')).toMatch(/Content Security Policy/);
    // The same template through the report's escapeHtml is inert and shows the text.
    for (const bypassCSP of [true, false]) {
      const { check, seen: text } = await openPage(browser(), escaped, bypassCSP, (pg) => pg.innerText('body'));
      expect(check).toEqual({ pwned: undefined, dialogs: [], requests: [pathToFileURL(escaped).href], consoleErrors: [], activeElements: REPORT_HEAD });
      for (const pl of PAYLOADS) expect(text).toContain(pl);
    }
  }, 60_000);

  it('a hostile trace renders inert: no script, no dialog, no request, no console error; charts drawn; payloads shown as text', async () => {
    const { file, pathPayloads } = hostileTrace();
    // the call behind `faultline report <file> --html <dir>`
    const out = await reportForFiles([file], { format: 'html', htmlDir: join(tempDir(), 'report') });
    const htmlPath = out.htmlPath as string;
    const reasons = out.quarantined.map((q) => q.reason);
    // every payload reached the quarantine as an unknown event name; a key and a raw line too
    expect(out.quarantined.length).toBe(PAYLOADS.length + 2);
    for (const pl of PAYLOADS) expect(reasons).toContain(`unknown event ${JSON.stringify(pl)}`);
    expect(out.eventsUsed).toBe(18);

    for (const bypassCSP of [false, true]) {
      const mode = bypassCSP ? 'CSP bypassed (escaping alone)' : 'as shipped (CSP in force)';
      const { check, seen } = await openPage(browser(), htmlPath, bypassCSP, async (page) => {
        const charts = [];
        for (const title of ['Per-tool latency:', 'Tool funnel']) {
          const chart = page.locator('div.chart', { has: page.locator('h3', { hasText: title }) });
          const svg = chart.locator('svg').first();
          charts.push({
            title,
            count: await chart.count(),
            box: await svg.boundingBox(),
            marks: await svg.locator('path, rect').count(),
            labels: await svg.locator('text').allTextContents(),
          });
        }
        return {
          charts,
          styles: await page.locator('style').count(),
          unknownCells: await page.locator('td', { hasText: '<unknown>' }).count(),
          quarantineHeading: await page.locator('h2', { hasText: 'Quarantine' }).isVisible(),
          quarantineList: await page.locator('h2:has-text("Quarantine") + ul').isVisible(),
          quarantineFiles: await page.locator('ul.quarantine > li > code').allInnerTexts(),
          quarantineItems: await page.locator('ul.quarantine > li > ul > li').allInnerTexts(),
          failedExpectations: await page.locator('h3:has-text("Failed expectations") + div.table tbody tr').evaluateAll(
            // Page-side code as a function over elements: the cells' rendered text, and whether each is on screen with a size
            (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => ({ text: (td as { innerText: string }).innerText, shown: td.getClientRects().length > 0 }))),
          ),
          inputs: await page.locator('#inputs').innerText(),
          // the table of contents links only to anchors of the page itself
          links: (await page.evaluate(`[...document.querySelectorAll('a')].map((a) => a.getAttribute('href'))`)) as string[],
          body: await page.innerText('body'),
          // wide tables scroll in their own box; the page itself never scrolls sideways
          pageWidth: (await page.evaluate('document.documentElement.scrollWidth')) as number,
        };
      });
      expect(check, mode).toEqual({
        pwned: undefined,
        dialogs: [],
        requests: [pathToFileURL(htmlPath).href],
        consoleErrors: [],
        activeElements: REPORT_HEAD,
      });
      expect(seen.styles, mode).toBe(1); // the report's own, none injected
      expect(seen.pageWidth, mode).toBeLessThanOrEqual(1280);

      // Charts: inline SVG with marks and a real size on screen; tool labels as text, '<unknown>' too.
      for (const chart of seen.charts) {
        expect(chart.count, chart.title).toBe(1);
        expect(chart.box?.width ?? 0, chart.title).toBeGreaterThan(50);
        expect(chart.box?.height ?? 0, chart.title).toBeGreaterThan(50);
        expect(chart.marks, chart.title).toBeGreaterThan(3);
        expect(chart.labels, chart.title).toEqual(expect.arrayContaining(['read', 'bash']));
      }
      expect(seen.charts.find((c) => c.title === 'Tool funnel')?.labels).toContain('<unknown>');
      expect(seen.unknownCells, mode).toBeGreaterThan(0);

      // Quarantine: visible, the file named once, then every line's number and reason literally as the analysis has them.
      expect(seen.quarantineHeading && seen.quarantineList, mode).toBe(true);
      expect(seen.inputs, mode).toContain(file);
      expect(seen.links.length, mode).toBeGreaterThan(5);
      for (const href of seen.links) expect(href, mode).toMatch(/^#[A-Za-z0-9_-]+$/);
      expect(seen.quarantineFiles, mode).toEqual([file]);
      expect(seen.quarantineItems, mode).toEqual(out.quarantined.map((q) => `line ${q.line}: ${q.reason}`));
      // The failed expectation: one row, its session, task, id and free-text detail shown literally (every payload in the detail).
      expect(seen.failedExpectations, mode).toEqual([
        [PAYLOADS[0], `task-${PAYLOADS[0]}`, PAYLOADS[1], PAYLOADS.join(' ')].map((text) => ({ text, shown: true })),
      ]);
      // reasons quote the event name as JSON, so '"' reads as \" there; the path is shown as is
      for (const pl of PAYLOADS) expect(seen.body, mode).toContain(`unknown event ${JSON.stringify(pl)}`);
      for (const pl of pathPayloads) expect(seen.body, mode).toContain(pl);
    }
  }, 60_000);
});
