/**
 * Without @google/genai (an optional peer), the CLI in a child node where the
 * package does not resolve (tests/helpers/hide-packages.mjs): a run on another
 * wire is untouched, a run that needs the gemini wire is refused before it
 * writes anything (exit 2) with the exact install command. The packed-install
 * test (install.test.ts) checks the same against a real install without it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const program = pathToFileURL(join(root, 'src/cli/program.ts')).href;

function cliWithout(hide: string, argv: string[]): { code: number; out: string } {
  const script = `
    const { run } = await import(${JSON.stringify(program)});
    let out = '';
    const code = await run(${JSON.stringify(argv)}, { stdout: (t) => void (out += t), stderr: (t) => void (out += t), env: { NO_COLOR: '1' }, cwd: process.cwd(), isTTY: false });
    process.stdout.write(JSON.stringify({ code, out }));
  `;
  const ran = spawnSync(process.execPath, ['--import', 'tsx', '--import', './tests/helpers/hide-packages.mjs', '--input-type', 'module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FAULTLINE_HIDE_PACKAGES: hide },
    timeout: 120_000,
  });
  expect(ran.status, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout) as { code: number; out: string };
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
