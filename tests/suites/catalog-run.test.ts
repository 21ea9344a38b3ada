/**
 * Every fault scenario and every control runs in `npm test` (a scenario not
 * run in CI is not a scenario). The protocol group has its own runner over all
 * three wires and both transports (tests/wire/fault-suites.test.ts) and the MCP
 * group its own with real MCP servers (tests/mcp/fault-scenarios.test.ts);
 * everything else runs here on the Anthropic and the OpenAI wire, except tasks
 * pinned to one wire, which run on theirs. Each must pass its own checks with
 * lost = 0.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/index.js';
import { findSuiteFiles, loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';
import { taskWire } from '../../src/suites/wire-pins.js';

const root = join(import.meta.dirname, '../..');
/** Directories whose scenarios a dedicated test file runs (and says so at its top). */
const DEDICATED: Record<string, string> = {
  'suites/faults/protocol': 'tests/wire/fault-suites.test.ts',
  'suites/faults/mcp': 'tests/mcp/fault-scenarios.test.ts',
};
const isDedicated = (file: string) => Object.keys(DEDICATED).some((dir) => relative(root, file).startsWith(`${dir}/`));

const files = findSuiteFiles([join(root, 'suites/faults'), join(root, 'suites/controls')]);
const here = files.filter((f) => !isDedicated(f));
const tasks = loadSuites(here);
const source = mockModelSource();
afterAll(() => source.close());

async function runOn(chosen: LoadedTask[], wire: 'anthropic' | 'openai'): Promise<string[]> {
  const summary = await runSuite({ tasks: chosen.map((t) => ({ ...t, wire: taskWire(t, wire) })), sink: new MemorySink(), source, concurrency: 4 });
  return summary.outcomes.filter((o) => o.outcome !== 'passed').map((o) => `${o.task.id}: ${o.error ?? o.expectations.filter((e) => !e.ok).map((e) => e.detail).join('; ')}`);
}

describe('the fault catalog and the controls in CI', () => {
  it('runs every suite file under suites/faults and suites/controls here or in its dedicated test', () => {
    for (const [dir, test] of Object.entries(DEDICATED)) {
      expect(statSync(join(root, test)).isFile(), test).toBe(true);
      expect(readdirSync(join(root, dir)).some((f) => f.endsWith('.yaml')), dir).toBe(true);
    }
    expect(here.length + files.filter(isDedicated).length).toBe(files.length);
    expect(tasks.length).toBeGreaterThan(60);
  });

  const pinned = tasks.filter((t) => t.wire !== undefined);
  const neutral = tasks.filter((t) => t.wire === undefined);
  it.each(['anthropic', 'openai'] as const)('passes every wire-neutral scenario and control on the %s wire', async (wire) => {
    expect(await runOn(neutral, wire)).toEqual([]);
  }, 240_000);

  it('passes the scenarios pinned to one wire on theirs', async () => {
    expect(await runOn(pinned, 'anthropic')).toEqual([]);
  }, 120_000);
});
