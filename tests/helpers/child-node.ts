/**
 * Scripts run in a child `node --import tsx`, for what must be seen from a
 * fresh process: which packages a command loads (loaded-packages.ts), how it
 * behaves when an optional package is not installed (hide-packages.mjs).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** A child script that runs `run(argv)` of src/cli/program.ts and prints `{ code, out }` (stdout and stderr as one text) as JSON. */
export function cliScript(argv: string[]): string {
  const program = pathToFileURL(resolve(root, 'src/cli/program.ts')).href;
  return `
    const { run } = await import(${JSON.stringify(program)});
    let out = '';
    const code = await run(${JSON.stringify(argv)}, { stdout: (t) => void (out += t), stderr: (t) => void (out += t), env: { NO_COLOR: '1' }, cwd: process.cwd(), isTTY: false });
    process.stdout.write(JSON.stringify({ code, out }));
  `;
}

/** Runs `script` (ESM) in a child from the repository root where the packages named in `hide` (comma-separated) do not resolve; returns its stdout. */
export function runHidingPackages(hide: string, script: string): string {
  const ran = spawnSync(process.execPath, ['--import', 'tsx', '--import', './tests/helpers/hide-packages.mjs', '--input-type', 'module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FAULTLINE_HIDE_PACKAGES: hide },
    timeout: 120_000,
  });
  expect(ran.status, ran.stderr).toBe(0);
  return ran.stdout;
}
