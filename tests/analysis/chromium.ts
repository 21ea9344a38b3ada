/**
 * Headless Chromium for the HTML report tests: Debian's /usr/bin/chromium
 * driven by playwright-core. Without it the suites skip locally and fail
 * under CI.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
export const INSTALL_HINT = `${CHROMIUM} not found; install Debian's Chromium: apt-get install -y --no-install-recommends chromium`;

/** Flags Chromium needs on a closed network (without the background-networking ones it hangs); Playwright adds a fresh temp --user-data-dir. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium keeps a Unix socket (its profile's SingletonSocket) in TMPDIR, and
 * a socket path holds at most 107 bytes: under the test run's deliberately
 * long TMPDIR (tests/global/leftover-guard.ts) it aborts at start. So it gets
 * a short temporary directory of its own, removed when it closes.
 */
export async function launchChromium(): Promise<Browser> {
  const tmp = mkdtempSync('/tmp/faultline-chromium-');
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000, env: { ...process.env, TMPDIR: tmp } });
    browser.on('disconnected', () => rmSync(tmp, { recursive: true, force: true }));
    return browser;
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** One browser for the enclosing describe block: launched before its tests, closed after. Call it in the block. */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium was not launched');
    return browser;
  };
}

/**
 * Page-side code (a string: the project's tsconfig has no DOM lib) listing
 * the elements that could run or fetch something. A link to an anchor of
 * the page itself (`href="#id"`, the table of contents) fetches nothing and
 * is not listed; any other link is.
 */
export const ACTIVE_ELEMENTS = `[...document.querySelectorAll('*')]
  .filter((el) => (/^(script|iframe|img|link|object|embed|a|foreignobject|base|meta)$/i.test(el.tagName)
      && !(el.tagName === 'A' && /^#[A-Za-z0-9_-]+$/.test(el.getAttribute('href') ?? '') && [...el.attributes].every((a) => a.name === 'href' || a.name === 'class')))
    || [...el.attributes].some((a) => /^on/i.test(a.name)))
  .map((el) => el.tagName.toLowerCase())`;
