/**
 * Item 3 of issue 29: a defense module kept in the user's own folder, outside
 * this repository and with no faultline installed next to it, can
 * `import 'faultline'` (it gets the running package); a module that cannot
 * load is a suite error (exit 2) naming the `defenses:` line, before any task
 * runs. The CLI runs as a subprocess from the user's folder, as a user runs it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const repo = resolve(import.meta.dirname, '../..');
const fixture = join(repo, 'examples/user-defense');
// tsx by absolute URL: `--import tsx` would be looked up from the user's folder, where it is not installed.
const tsx = pathToFileURL(createRequire(join(repo, 'package.json')).resolve('tsx')).href;

function faultline(cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', tsx, join(repo, 'src/cli/bin.ts'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, TMPDIR: cwd, NO_COLOR: '1' }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The user's folder: the fixture suite and its defense, with `defenses:` pointing at `module`. */
function userFolder(module: string, source?: string): string {
  const dir = tempDir();
  copyFileSync(join(fixture, 'no-test-skip.mjs'), join(dir, 'no-test-skip.mjs'));
  if (source !== undefined) writeFileSync(join(dir, module), source);
  writeFileSync(join(dir, 'suite.yaml'), readFileSync(join(fixture, 'suite.yaml'), 'utf8').replace('defenses: [./no-test-skip.mjs]', `defenses: [./${module}]`));
  return dir;
}

describe('a defense module in the user\'s own folder', () => {
  it('imports faultline by name and runs: the defense fires on its scenario, every task passes', () => {
    const dir = userFolder('no-test-skip.mjs');
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    const r = faultline(dir, ['run', 'suite.yaml', '--out', 'trace.jsonl']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('3 passed, 0 failed');
    expect(r.code).toBe(0);
    const triggers = readFileSync(join(dir, 'trace.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { event: string; defense?: string })
      .filter((e) => e.event === 'defense_trigger');
    expect(triggers).toEqual([expect.objectContaining({ defense: 'no_test_skip' })]);
  }, 120_000);

  it('that imports a package it cannot find is a suite error at its defenses: line (exit 2), before any task runs', () => {
    const dir = userFolder('broken.mjs', "import { defineDefense } from 'faultline';\nimport 'not-installed-anywhere';\nexport default defineDefense({});\n");
    const r = faultline(dir, ['run', 'suite.yaml', '--out', 'trace.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`faultline: invalid suite: suite.yaml:6:14: defenses: cannot load defense module ${join(dir, 'broken.mjs')}: Cannot find package 'not-installed-anywhere'`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack
    expect(existsSync(join(dir, 'trace.jsonl'))).toBe(false);
  }, 120_000);

  it('that has a syntax error or exports no defense is a suite error too', () => {
    const syntax = userFolder('typo.mjs', 'export default {\n');
    const a = faultline(syntax, ['run', 'suite.yaml', '--out', 'trace.jsonl']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('suite.yaml:6:14: defenses: cannot load defense module');
    const empty = userFolder('empty.mjs', 'export const nothing = 1;\n');
    const b = faultline(empty, ['run', 'suite.yaml', '--out', 'trace.jsonl']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`suite.yaml:6:14: defenses: defense module ${join(empty, 'empty.mjs')} exports no defense`);
  }, 120_000);
});
