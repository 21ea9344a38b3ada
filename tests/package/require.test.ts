/**
 * CommonJS users (Jest, older tooling) load the package with `require`. Node
 * 20.19+ loads ESM through require() unless a module has a top-level await
 * (ERR_REQUIRE_ASYNC_MODULE): the bash grammar is therefore loaded on demand.
 * Runs the built package (dist/, built by npm ci) by its own name.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const node = (code: string, type: 'commonjs' | 'module' = 'commonjs') =>
  execFileSync(process.execPath, ['--input-type', type, '-e', code], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('require() of the package', () => {
  it("require('faultline') and require('faultline/testing') load", () => {
    const out = node(`const f = require('faultline'); const t = require('faultline/testing'); const e = require('faultline/events');
      process.stdout.write([typeof f.runAgent, typeof f.defineDefense, typeof t.runScenario, typeof t.faultlineMatchers, typeof e.createEmitter].join(' '));`);
    expect(out).toBe('function function function object function');
  });

  it('a required harness analyses bash once the grammar is loaded, and fails closed before', () => {
    const out = node(`const { analyzeShell } = require('./dist/harness/permissions/shell-analysis.js');
      const { loadShellParser } = require('faultline');
      const before = analyzeShell('ls -la | wc -l');
      loadShellParser().then(() => { const after = analyzeShell('ls -la | wc -l'); process.stdout.write(JSON.stringify([before.ok, after.ok])); });`);
    expect(JSON.parse(out)).toEqual([false, true]);
  });
});
