/**
 * Startup pays only for the command that runs: building the program (and so
 * --help / --version) must not load the heavy dependencies, and `validate`
 * must not load the report, provider or harness stacks.
 *
 * Each case runs the CLI in a child `node --import tsx` with a module hook
 * that appends every resolved URL to a log file. The hook writes synchronously
 * before the resolution returns, so once the child has exited the log holds
 * every module the program imported (ESM imports, including CommonJS packages
 * entered through `import`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVE_PROVIDERS } from '../../src/suites/live-source.js';
import { PROVIDER_CHOICES } from '../../src/cli/commands/run.js';
import { goldenLines } from '../analysis/golden-trace.js';
import { cliScript } from '../helpers/child-node.js';
import { runLoggingPackages } from '../helpers/loaded-packages.js';
import { tempDir } from '../helpers/temp-dirs.js';

const HEAVY = ['@duckdb/node-api', 'vega', 'vega-lite', '@anthropic-ai/sdk', 'openai', 'web-tree-sitter', 'msw', 'yaml'];

/** Runs `run(argv)` from src/cli/program.ts in a child; returns its result and the npm packages it loaded. */
function cliInChild(argv: string[]): { code: number; stdout: string; packages: string[] } {
  const child = runLoggingPackages(cliScript(argv));
  const { code, out } = JSON.parse(child.stdout) as { code: number; out: string };
  return { code, stdout: out, packages: child.packages };
}

describe('CLI startup loads only what the command needs', () => {
  it('--help registers every command while loading no npm package but commander', () => {
    const { code, stdout, packages } = cliInChild(['--help']);
    expect(code).toBe(0);
    for (const command of ['run', 'validate', 'schema', 'mock-server', 'report', 'query', 'diff', 'compact', 'lint-tools', 'import', 'export']) expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(packages.filter((p) => HEAVY.includes(p))).toEqual([]);
    expect(packages).toEqual(['commander']);
  });

  it('validate loads the event contract only: no DuckDB, vega, provider SDKs, tree-sitter or msw', () => {
    const dir = tempDir('faultline-lazy-');
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, goldenLines().join('\n') + '\n');
    const { code, stdout, packages } = cliInChild(['validate', trace]);
    expect(stdout).toMatch(/0 bad/);
    expect(code).toBe(0);
    expect(packages.filter((p) => HEAVY.includes(p))).toEqual([]);
  });

  it('run on the mock loads only the SDK of the wire it speaks: Anthropic without openai, Chat Completions without @anthropic-ai/sdk', () => {
    const dir = tempDir('faultline-lazy-');
    const suite = join(dir, 'suite.yaml');
    writeFileSync(suite, ['tasks:', '  - id: one', '    prompt: Say hi.', '    script:', '      - text: hi', ''].join('\n'));
    const anthropic = cliInChild(['run', suite, '--workers', '1', '--out', join(dir, 'a.jsonl')]);
    expect(anthropic.code).toBe(0);
    expect(anthropic.packages).toContain('@anthropic-ai/sdk');
    expect(anthropic.packages).not.toContain('openai');
    const openai = cliInChild(['run', suite, '--workers', '1', '--wire', 'openai', '--out', join(dir, 'o.jsonl')]);
    expect(openai.code).toBe(0);
    expect(openai.packages).toContain('openai');
    expect(openai.packages).not.toContain('@anthropic-ai/sdk');
  });

  it("run's --provider choices (kept static, so live-source and its SDKs stay unloaded) match LIVE_PROVIDERS", () => {
    expect(PROVIDER_CHOICES).toEqual(['mock', ...LIVE_PROVIDERS]);
  });
});
