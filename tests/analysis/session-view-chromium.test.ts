/**
 * The session view as a person meets it in real Chromium: a run of one busy
 * session (a retried 429, three reads in parallel, a command the
 * dangerous-command defense blocks, a missed expectation), its HTML report
 * opened from file://. The failed expectation's session links to the view;
 * the view draws the model row, three lanes with the reads side by side, the
 * marks row with the retry and the defense trigger, a time axis, and runs no
 * script. A screenshot is kept in test-artifacts/ (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/cli-io.js';
import { ACTIVE_ELEMENTS, HAVE_CHROMIUM, sharedBrowser } from './chromium.js';
import { tempDir } from './fixtures.js';

const ARTIFACTS = resolve('test-artifacts/session-view');
let html: string;

beforeAll(async () => {
  const dir = tempDir();
  const trace = join(dir, 'busy.jsonl');
  expect((await cli(['run', 'tests/fixtures/session-view.yaml', '--out', trace])).code).toBe(1);
  expect((await cli(['report', trace, '--html', join(dir, 'html')])).code).toBe(0);
  html = join(dir, 'html', 'index.html');
}, 120_000);

interface Seen {
  linkTargets: { href: string; target: string | null }[];
  lanes: string[];
  calls: { lane: string; left: number; right: number; title: string }[];
  marks: { cls: string; title: string }[];
  ticks: number;
  failedDetail: string;
  active: string[];
  wider: boolean;
}

describe.skipIf(!HAVE_CHROMIUM)('the session view in Chromium', () => {
  const browser = sharedBrowser();

  it('is linked from the failed expectation and shows lanes, side-by-side calls, marks and the axis', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
      const seen = (await page.evaluate(`(() => {
        const links = [...document.querySelectorAll('#section-expectation_failures ~ .table a[href^="#session-"], a[href^="#session-"]')];
        const view = document.querySelector('section.session');
        const box = (el) => el.getBoundingClientRect();
        return {
          linkTargets: links.map((a) => ({ href: a.getAttribute('href'), target: document.getElementById(a.getAttribute('href').slice(1))?.tagName ?? null })),
          lanes: [...view.querySelectorAll('svg.timeline g.lane')].map((g) => g.getAttribute('data-lane')),
          calls: [...view.querySelectorAll('svg.timeline g.bar.call')].map((g) => ({ lane: g.getAttribute('data-lane'), left: box(g.querySelector('rect')).left, right: box(g.querySelector('rect')).right, title: g.querySelector('title').textContent })),
          marks: [...view.querySelectorAll('svg.timeline path.mark')].map((p) => ({ cls: p.getAttribute('class'), title: p.querySelector('title').textContent })),
          ticks: view.querySelectorAll('svg.timeline g.tick').length,
          failedDetail: view.innerText,
          active: ${ACTIVE_ELEMENTS},
          wider: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        };
      })()`)) as Seen;
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.locator('section.session').first().screenshot({ path: join(ARTIFACTS, 'session.png') });

      expect(errors).toEqual([]);
      // only the page's own <meta charset> and CSP: no script, no link out, no handler
      expect(seen.active).toEqual(['meta', 'meta']);
      expect(seen.wider).toBe(false);
      // every link to a session resolves to its view
      expect(seen.linkTargets.length).toBeGreaterThan(0);
      expect(seen.linkTargets.every((l) => l.target === 'SECTION')).toBe(true);
      expect(seen.lanes).toEqual(['model', 'lane 1', 'lane 2', 'lane 3', 'marks']);
      // the three reads overlap in time, each in its own lane; bash ran later
      const reads = seen.calls.filter((c) => c.title.startsWith('read '));
      expect(reads.map((r) => r.lane).sort()).toEqual(['1', '2', '3']);
      expect(Math.max(...reads.map((r) => r.left))).toBeLessThan(Math.min(...reads.map((r) => r.right)));
      const bash = seen.calls.find((c) => c.title.startsWith('bash '));
      expect(bash?.title).toMatch(/failed: permission_denied \(danger:rm_critical\) · permission deny \(dangerous_command\)/);
      expect(bash!.left).toBeGreaterThan(Math.max(...reads.map((r) => r.right)));
      expect(seen.marks.map((m) => m.cls)).toEqual(['mark retry', 'mark defense']);
      expect(seen.marks[0]?.title).toMatch(/^retry · rate_limited · turn 1 .*status 429/);
      expect(seen.marks[1]?.title).toMatch(/^defense · dangerous_command_block · turn 2 .*block · bash/);
      expect(seen.ticks).toBeGreaterThan(2);
      expect(seen.failedDetail).toContain('answer contains "All clean"; answer was: The command was blocked.');
    } finally {
      await context.close();
    }
  });
});
