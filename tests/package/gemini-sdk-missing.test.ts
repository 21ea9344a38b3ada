/**
 * Without @google/genai (an optional peer), the CLI in a child node where the
 * package does not resolve (tests/helpers/hide-packages.mjs): a run on another
 * wire is untouched, a run that needs the gemini wire is refused before it
 * writes anything (exit 2) with the exact install command. The packed-install
 * test (install.test.ts) checks the same against a real install without it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliScript, runHidingPackages } from '../helpers/child-node.js';
import { tempDir } from '../helpers/temp-dirs.js';

function cliWithout(hide: string, argv: string[]): { code: number; out: string } {
  return JSON.parse(runHidingPackages(hide, cliScript(argv))) as { code: number; out: string };
}

const INSTALL = 'needs the optional peer dependency @google/genai, which is not installed; install it with: npm i -D @google/genai@2.32.0';

describe('the gemini wire without @google/genai', () => {
  const dir = tempDir('faultline-no-genai-');

  it('a run on the anthropic wire does not need it', { timeout: 120_000 }, () => {
    const ran = cliWithout('@google/genai', ['run', 'suites/demo/basics.yaml', '--out', join(dir, 'anthropic.jsonl')]);
    expect(ran.code, ran.out).toBe(0);
  });

  it.each([
    ['--wire gemini', ['suites/demo/basics.yaml', '--wire', 'gemini']],
    ['a task that pins wire: gemini', ['suites/faults/protocol/025-gemini-finish-reasons.yaml', '--filter', 'protocol-025c']],
  ])('%s: exit 2 with the install command, no trace written', { timeout: 120_000 }, (_why, args) => {
    const out = join(dir, `${_why.replace(/\W+/g, '-')}.jsonl`);
    const ran = cliWithout('@google/genai', ['run', ...args, '--out', out]);
    expect(ran.code, ran.out).toBe(2);
    expect(ran.out.trim()).toBe(`faultline: the gemini wire (--wire gemini, --provider gemini, or a task with \`wire: gemini\`) ${INSTALL}`);
    expect(existsSync(out)).toBe(false);
  });

  it('the same runs work with it installed (the check is not what refuses them)', { timeout: 120_000 }, () => {
    const ran = cliWithout('', ['run', 'suites/demo/basics.yaml', '--wire', 'gemini', '--out', join(dir, 'gemini.jsonl')]);
    expect(ran.code, ran.out).toBe(0);
  });
});
