/**
 * vitest globalSetup: `npm test` leaves nothing behind (issue 15, item 8).
 *
 * - Every test process gets its own temporary directory: TMPDIR points at a
 *   fresh directory for the whole run (workers and the CLIs and harnesses they
 *   start inherit it), so what a test forgets to remove is found there, and
 *   other runs on the same machine cannot be mistaken for ours. It is as deep
 *   as a macOS TMPDIR under a CI workspace (well over 100 characters), so
 *   every test runs with long paths: output that breaks a path across lines,
 *   or a regex that assumes a short one, fails here and not on a user's Mac.
 * - The generated-output directories of the checkout (traces/, reports/,
 *   recordings/) are listed before and after the run.
 *
 * Anything left fails the run, named. The temporary directory is removed
 * either way, so a failing run does not litter the machine.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/** Generated outputs of the checkout a test must not write into (or must clean up). */
const OUTPUT_DIRS = ['traces', 'reports', 'recordings'];
/**
 * Caches other tools keep in TMPDIR on purpose (not test leftovers): tsx's
 * transpile cache for the child processes that run TypeScript, Node's compile cache.
 */
const CACHES = [/^tsx-\d+$/, /^node-compile-cache$/, /^v8-compile-cache/];
/** The shape of a macOS TMPDIR (/var/folders/xx/<32 chars>/T) with a CI workspace's depth. */
export const LONG_TMPDIR = 'var/folders/7x/k2m0q9_s1234567890abcdefghij0000gn/T/ci-runner-work-directory';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

export function leftovers(root: string, before: ReadonlySet<string>, tempDir: string): string[] {
  const found: string[] = [];
  for (const dir of OUTPUT_DIRS) for (const file of filesUnder(resolve(root, dir))) if (!before.has(file)) found.push(relative(root, file));
  if (existsSync(tempDir)) for (const entry of readdirSync(tempDir)) if (!CACHES.some((c) => c.test(entry))) found.push(join('$TMPDIR', entry));
  return found.sort();
}

export default function setup(): () => void {
  const root = process.cwd();
  const before = new Set(OUTPUT_DIRS.flatMap((dir) => filesUnder(resolve(root, dir))));
  const runDir = mkdtempSync(join(tmpdir(), 'faultline-test-run-'));
  const tempDir = join(runDir, LONG_TMPDIR);
  mkdirSync(tempDir, { recursive: true });
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = tempDir;
  return () => {
    const left = leftovers(root, before, tempDir);
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(runDir, { recursive: true, force: true });
    if (left.length > 0) {
      const shown = left.slice(0, 40).map((f) => `  ${f}`).join('\n');
      // vitest prints an error thrown here but exits 0; the exit code is what CI sees.
      process.exitCode = 1;
      throw new Error(`npm test left ${left.length} file${left.length === 1 ? '' : 's'} behind (a test that writes must clean up after itself):\n${shown}${left.length > 40 ? `\n  ... and ${left.length - 40} more` : ''}`);
    }
  };
}
