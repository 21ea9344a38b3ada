/**
 * @google/genai and msw are optional peers: a run that does not use the gemini
 * wire, and an import of faultline/testing, must not load them (a fresh
 * install does not have them). Each case runs in a child node with a hook
 * that logs every module it resolves (tests/helpers/loaded-packages.ts); the
 * positive cases show the log does see each peer once it is used.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliScript } from '../helpers/child-node.js';
import { runLoggingPackages } from '../helpers/loaded-packages.js';
import { tempDir } from '../helpers/temp-dirs.js';

const testing = pathToFileURL(resolve('src/testing.ts')).href;
const mswEntry = pathToFileURL(resolve('src/msw.ts')).href;

function cli(argv: string[]): { code: number; out: string; packages: string[] } {
  const child = runLoggingPackages(cliScript(argv));
  return { ...(JSON.parse(child.stdout) as { code: number; out: string }), packages: child.packages };
}

describe('optional peers load only when used', () => {
  it('a mock run on the anthropic and openai wires, memory and http, loads neither @google/genai nor msw', { timeout: 120_000 }, () => {
    const dir = tempDir('faultline-peers-');
    // The wire's own SDK shows the log sees the packages the run loads (only the wire's is loaded: tests/cli/lazy-imports.test.ts).
    for (const [args, sdk] of [[['--wire', 'anthropic'], '@anthropic-ai/sdk'], [['--wire', 'openai', '--transport', 'http'], 'openai']] as const) {
      const ran = cli(['run', 'suites/demo/basics.yaml', ...args, '--out', join(dir, `${args[1]}.jsonl`)]);
      expect(ran.code, ran.out).toBe(0);
      expect(ran.packages).toContain(sdk);
      expect(ran.packages.filter((p) => p === '@google/genai' || p === 'msw')).toEqual([]);
    }
  });

  it('a run on the gemini wire loads @google/genai', { timeout: 120_000 }, () => {
    const dir = tempDir('faultline-peers-');
    const ran = cli(['run', 'suites/demo/basics.yaml', '--wire', 'gemini', '--out', join(dir, 'gemini.jsonl')]);
    expect(ran.code, ran.out).toBe(0);
    expect(ran.packages).toContain('@google/genai');
  });

  it('importing faultline/testing loads no msw; importing faultline/msw does', () => {
    // msw is required (its API is synchronous), which the resolve hook does not see: count the requires of msw too.
    const script = (use: string) => `
      const { default: Module } = await import('node:module');
      const required = [];
      const original = Module.prototype.require;
      Module.prototype.require = function (id) { required.push(id); return original.apply(this, arguments); };
      const t = await import(${JSON.stringify(testing)});
      ${use}
      process.stdout.write(JSON.stringify({ runScenario: typeof t.runScenario, msw: required.filter((id) => id === 'msw' || id.startsWith('msw/')) }));`;
    const bare = runLoggingPackages(script(''));
    expect(JSON.parse(bare.stdout)).toEqual({ runScenario: 'function', msw: [] });
    expect(bare.packages).not.toContain('msw');
    const used = runLoggingPackages(script(`const m = await import(${JSON.stringify(mswEntry)}); if (m.mockHandlers.length !== 4) throw new Error(String(m.mockHandlers.length));`));
    expect(JSON.parse(used.stdout)).toEqual({ runScenario: 'function', msw: ['msw', 'msw/node'] });
  });
});
