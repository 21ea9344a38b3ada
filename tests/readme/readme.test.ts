/**
 * The README stays true: its Quick start and every shell example run, in
 * README order, in a clean checkout of this working tree (see
 * readme-examples.ts for what "run" means for each kind of example), and
 * every suite it shows loads without an error or a warning.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuites } from '../../src/suites/load-suite.js';
import { readmeBlocks, type Example } from './readme-examples.js';
import { scratchCheckout, sh, type Ran } from './scratch-checkout.js';

const repo = resolve(import.meta.dirname, '../..');
const README = join(repo, 'README.md');
const blocks = readmeBlocks(README);
const examples = blocks.flatMap((b) => b.examples);
/** Examples of one block run at the same time, at most this many (the machine has two cores). */
const AT_ONCE = 3;
const EXAMPLE_TIMEOUT_MS = 240_000;

function describeRun(e: Example, ran: Ran): string {
  return `README.md:${e.line}: ${e.text}\n$ ${e.command}\nexit ${ran.code}\n--- stdout (tail)\n${ran.stdout.slice(-3000)}\n--- stderr (tail)\n${ran.stderr.slice(-3000)}`;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Soft: one run shows every example that is not as the README says, not just the first. */
function check(e: Example, ran: Ran, root: string): void {
  const what = describeRun(e, ran);
  expect.soft(ran.stderr, what).not.toMatch(/internal error|\n\s+at .+:\d+:\d+\)?\n/);
  switch (e.expect.kind) {
    case 'ok':
      expect.soft(ran.code, what).toBe(0);
      break;
    case 'verdict':
      expect.soft([0, 1], what).toContain(ran.code);
      break;
    case 'refused':
      expect.soft(ran.code, what).toBe(2);
      expect.soft(ran.stderr.trimEnd().split('\n'), what).toHaveLength(1);
      expect.soft(ran.stderr, what).toMatch(/^faultline: /);
      break;
    case 'unreachable':
      expect.soft(ran.code, what).toBe(1);
      expect.soft(ran.stdout, what).toMatch(/\b0 passed\b/);
      expect.soft(ran.stdout, what).toMatch(/model_error/);
      break;
    case 'not_run':
      return;
  }
  // "the path of the trace it wrote": a run names its trace, and the trace is there.
  for (const [, path] of ran.stdout.matchAll(/^trace: (\S+)/gm)) {
    const file = resolve(root, path!);
    expect.soft(existsSync(file) && statSync(file).size > 0, `${what}\n(trace ${file} missing or empty)`).toBe(true);
  }
}

/** The Quick start's own words: "one line per task, a summary table and the path of the trace it wrote (traces/<run-id>.jsonl)". */
function quickStartSays(e: Example, ran: Ran): void {
  const what = describeRun(e, ran);
  const lines = [...ran.stdout.matchAll(/^\[\s*\d+\/(\d+)\] PASS /gm)];
  expect.soft(lines.length, what).toBeGreaterThan(0);
  expect.soft(lines.length, what).toBe(Number(lines[0]?.[1]));
  expect.soft(ran.stdout, what).toMatch(/┌.*\n│ task /);
  expect.soft(ran.stdout, what).toMatch(/^trace: (?:\S*\/)?traces\/\d{8}T\d{6}Z-[0-9a-f]+\.jsonl$/m);
}

describe('README', () => {
  it('has the Quick start and the examples this test runs', () => {
    expect(examples.length).toBeGreaterThan(20);
    const quick = blocks[0]!.examples.map((e) => e.text);
    expect(quick[0]).toMatch(/^npm ci && npx faultline run suites\/demo$/);
    expect(quick[1]).toBe('npm test');
    const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // `npm test` is not run from inside itself: it is the command whose vitest run includes this test.
    expect(scripts.test).toMatch(/\bvitest run\b/);
  });

  describe('suites shown in the README load without an error or a warning', () => {
    const text = readFileSync(README, 'utf8');
    const suites = [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => m[1]!).filter((body) => /^tasks:/m.test(body));
    const dir = mkdtempSync(join(tmpdir(), 'faultline-readme-suites-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    it.each(suites.map((body, i) => [i + 1, body] as const))('suite example %i', (i, body) => {
      const file = join(dir, `example-${i}.yaml`);
      writeFileSync(file, body);
      const warnings: string[] = [];
      expect(loadSuites([file], { onWarning: (w) => warnings.push(w) }).length).toBeGreaterThan(0);
      expect(warnings).toEqual([]);
    });
  });

  it('every shell example runs in a clean checkout as the README says', { timeout: 900_000 }, async () => {
    const scratch = scratchCheckout(repo);
    try {
      for (const block of blocks) {
        const queue = block.examples.filter((e) => e.expect.kind !== 'not_run');
        const results: [Example, Ran][] = [];
        const worker = async () => {
          for (let e = queue.shift(); e; e = queue.shift()) results.push([e, await sh(e.command, scratch, e.unset, EXAMPLE_TIMEOUT_MS)]);
        };
        await Promise.all(Array.from({ length: AT_ONCE }, worker));
        for (const [e, ran] of results.sort((a, b) => a[0].line - b[0].line)) {
          check(e, ran, scratch.root);
          if (block === blocks[0] && /^faultline run /.test(e.command)) quickStartSays(e, ran);
        }
      }
      // A run refused before it starts writes nothing: no empty trace, no recording.
      const empty = filesUnder(join(scratch.root, 'traces')).filter((f) => statSync(f).size === 0);
      expect(empty).toEqual([]);
      expect(existsSync(join(scratch.root, 'recordings'))).toBe(false);
    } finally {
      scratch.remove();
    }
  });
});
