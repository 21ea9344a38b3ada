/**
 * The MCP rules that live in one function or constant, switched off by
 * replacing their module (vi.doMock, then a fresh import of the runner): the
 * fault scenarios that exercise each must fail, and the unchanged runner
 * passes them (the control), so the failures are the switch's doing.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RemoteTool } from '../../src/harness/mcp/remote-tool.js';
import type { PricedRun } from '../../src/harness/results/token-estimate.js';

const suites = join(import.meta.dirname, '../../suites/faults/mcp');
const mocked: string[] = [];

/** For each task: the ids of its failed checks ([] = passed), or its error. */
async function failedChecks(prefixes: string[]): Promise<string[][]> {
  const { loadSuites } = await import('../../src/suites/load-suite.js');
  const { runSuite } = await import('../../src/suites/run-suite.js');
  const { mockModelSource } = await import('../../src/suites/mock-source.js');
  const { MemorySink } = await import('../../src/events/index.js');
  const tasks = loadSuites([suites]).filter((t) => prefixes.some((p) => t.id.startsWith(p)));
  expect(tasks).toHaveLength(prefixes.length);
  const source = mockModelSource();
  try {
    const summary = await runSuite({ tasks, sink: new MemorySink(), source, concurrency: 4 });
    return summary.outcomes.map((o) => (o.error ? [`error: ${o.error}`] : o.expectations.filter((e) => !e.ok).map((e) => e.id)));
  } finally {
    await source.close();
  }
}

function mock(path: string, factory: (actual: Record<string, unknown>) => Record<string, unknown>): void {
  vi.resetModules();
  mocked.push(path);
  vi.doMock(path, async (importOriginal) => factory(await importOriginal()));
}

afterEach(() => {
  for (const path of mocked.splice(0)) vi.doUnmock(path);
  vi.resetModules();
});

describe('MCP rules switched off at their module', { timeout: 120_000 }, () => {
  it('control: the freshly imported runner passes the scenarios used below', async () => {
    vi.resetModules();
    expect(await failedChecks(['mcp-004-', 'mcp-005-'])).toEqual([[], []]);
  });

  it('the 2,048-character description cap: mcp-004 fails without it', async () => {
    mock('../../src/harness/mcp/config.js', (actual) => ({ ...actual, MAX_DESCRIPTION_CHARS: 1_000_000 }));
    // The model is shown the whole 10,000 characters, says so and stops.
    expect((await failedChecks(['mcp-004-']))[0]).toContain('answer.0');
  });

  it('the token estimate: mcp-005 fails with a character limit of 4 characters per token in its place', async () => {
    mock('../../src/harness/results/token-estimate.js', (actual) => ({
      ...actual,
      certainlyWithin: (text: string, max: number) => text.length / 4 <= max,
      pricedRuns: (text: string): PricedRun[] => [{ start: 0, end: text.length, rate: 1 / 4, fixed: false }],
    }));
    const [failed] = await failedChecks(['mcp-005-']);
    expect(failed).toContain('events.count(tool_success where tool = mcp__big__cjk and truncated = true and spilled = true) == 1');
    expect(failed).toContain('events.count(tool_success where tool = mcp__big__images and truncated = true and spilled = true) == 1');
    expect(failed).not.toContain('events.count(tool_success where tool = mcp__big__english and truncated = false) == 1');
  });

  it('the order-insensitive listing diff: mcp-006 fails when a reordered list counts as changed', async () => {
    mock('../../src/harness/mcp/remote-tool.js', (actual) => ({
      ...actual,
      changedTools: (first: RemoteTool[], next: RemoteTool[]) => next.filter((t, i) => first[i]?.name !== t.name).length,
    }));
    expect(await failedChecks(['mcp-006-'])).toEqual([['events.count(mcp_server where server = shuffle and state = connected and tools_changed = 0) == 1']]);
  });

  it('the description diff: mcp-007 fails when only added or removed tools count', async () => {
    mock('../../src/harness/mcp/remote-tool.js', (actual) => ({
      ...actual,
      changedTools: (first: RemoteTool[], next: RemoteTool[]) => {
        const before = new Set(first.map((t) => t.name));
        const after = new Set(next.map((t) => t.name));
        return [...after].filter((n) => !before.has(n)).length + [...before].filter((n) => !after.has(n)).length;
      },
    }));
    expect(await failedChecks(['mcp-007-'])).toEqual([['events.count(mcp_server where server = drifty and state = connected and tools_changed = 1) == 1']]);
  });
});
