/**
 * Every MCP fault scenario of suites/faults/mcp through the suite runner (the
 * mock model on the loopback server, real MCP server processes), then each
 * defense or invariant switched off: the scenarios that exercise it must fail,
 * or they prove nothing. Switches that are configuration are overrides of
 * the task; the others replace one method of the class that does the work.
 * (Module-level switches are in fault-mutations.test.ts.)
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { MemorySink } from '../../src/events/index.js';
import { McpConnection } from '../../src/harness/mcp/connection.js';
import { McpManager } from '../../src/harness/mcp/manager.js';
import type { McpCallOptions } from '../../src/harness/mcp/mcp-tool.js';
import { ToolFault } from '../../src/harness/tools/tool-fault.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite, type RunSummary } from '../../src/suites/run-suite.js';
import { TaskMcp } from '../../src/suites/task-mcp.js';

const tasks = loadSuites([join(import.meta.dirname, '../../suites/faults/mcp')]);
const source = mockModelSource();
afterAll(() => source.close());
afterEach(() => vi.restoreAllMocks());

const pick = (...prefixes: string[]) => {
  const chosen = tasks.filter((t) => prefixes.some((p) => t.id.startsWith(p)));
  expect(chosen).toHaveLength(prefixes.length);
  return chosen;
};
const run = (chosen: LoadedTask[], keepWorkspaces = false) => runSuite({ tasks: chosen, sink: new MemorySink(), source, concurrency: 4, keepWorkspaces });
const failing = (summary: RunSummary) =>
  summary.outcomes.filter((o) => o.outcome !== 'passed').map((o) => `${o.task.id}: ${o.error ?? o.expectations.filter((e) => !e.ok).map((e) => e.detail).join('; ')}`);
const passed = (summary: RunSummary) => summary.outcomes.filter((o) => o.outcome === 'passed').map((o) => o.task.id);
/** The task with one MCP server's settings changed. */
const withServer = (task: LoadedTask, server: string, change: Record<string, unknown>): LoadedTask => ({
  ...task,
  mcp_servers: { ...task.mcp_servers, [server]: { ...task.mcp_servers![server]!, ...change } },
});

describe('MCP fault scenarios', { timeout: 120_000 }, () => {
  it('are numbered mcp-NNN, each stating its scenario, and cover the catalog', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(10);
    for (const task of tasks) {
      expect(task.id).toMatch(/^mcp-\d{3}b?-[a-z0-9-]+$/);
      expect(task.scenario).toMatch(/^mcp\./);
    }
  });

  it('all pass, with every call settled exactly once, and the spill holds the full output', async () => {
    const summary = await run(tasks, true);
    try {
      expect(failing(summary)).toEqual([]);
      const huge = summary.outcomes.find((o) => o.task.id.startsWith('mcp-005-'))!;
      const spills = readdirSync(join(huge.workspace!, '.faultline/spill'));
      expect(spills).toHaveLength(3);
      const sizes = spills.map((f) => readFileSync(join(huge.workspace!, '.faultline/spill', f), 'utf8').length).sort((a, b) => a - b);
      // images: the 20 placeholder lines and the header; cjk: 30,000; base64: 80,000 characters, whole.
      expect(sizes.slice(1)).toEqual([30_000, 80_000]);
    } finally {
      for (const o of summary.outcomes) if (o.workspace && existsSync(o.workspace)) rmSync(o.workspace, { recursive: true, force: true });
    }
  });

  it('fail without the "still connecting" answer: a pending or failed server reads as "does not exist"', async () => {
    vi.spyOn(McpManager.prototype, 'unavailable').mockReturnValue(null);
    vi.spyOn(McpManager.prototype, 'pendingServers').mockReturnValue([]);
    expect(passed(await run(pick('mcp-001-', 'mcp-008-')))).toEqual([]);
  });

  it('fail without the per-call timeout', async () => {
    const [task] = pick('mcp-002-');
    expect(passed(await run([withServer(task!, 'hang', { timeout_ms: 600_000 })]))).toEqual([]);
  });

  it('fail when the timeout does not reach the server as notifications/cancelled', async () => {
    const call = McpConnection.prototype.call;
    vi.spyOn(McpConnection.prototype, 'call').mockImplementation(function (this: McpConnection, tool: string, args: Record<string, unknown>, options: McpCallOptions) {
      return call.call(this, tool, args, { ...options, signal: new AbortController().signal });
    });
    expect(passed(await run(pick('mcp-002-')))).toEqual([]);
  });

  it('fail when progress does not restart the timeout', async () => {
    const call = McpConnection.prototype.call;
    vi.spyOn(McpConnection.prototype, 'call').mockImplementation(function (this: McpConnection, tool: string, args: Record<string, unknown>, options: McpCallOptions) {
      return call.call(this, tool, args, { ...options, onProgress: () => {} });
    });
    expect(passed(await run(pick('mcp-002b-')))).toEqual([]);
  });

  it('fail without reconnects', async () => {
    // mcp-006 and mcp-007 reconnect the same way; one scenario shows the switch.
    const [task] = pick('mcp-003-');
    const summary = await run([withServer(task!, 'flaky', { reconnect: { attempts: 0 } })]);
    expect(passed(summary)).toEqual([]);
    expect(summary.outcomes[0]!.expectations.filter((e) => !e.ok).map((e) => e.id)).toContain('events.count(mcp_server where server = flaky and state = connected) == 2');
  });

  it('fail when a JSON-RPC error is passed on as a tool-reported error', async () => {
    const call = McpConnection.prototype.call;
    vi.spyOn(McpConnection.prototype, 'call').mockImplementation(async function (this: McpConnection, tool: string, args: Record<string, unknown>, options: McpCallOptions) {
      try {
        return await call.call(this, tool, args, options);
      } catch (error) {
        if (error instanceof ToolFault && error.code.startsWith('jsonrpc_')) return { content: [{ type: 'text', text: error.modelText }], isError: true };
        throw error;
      }
    });
    expect(passed(await run(pick('mcp-009-')))).toEqual([]);
  });

  it('fail without the per-server trust rules', async () => {
    vi.spyOn(TaskMcp.prototype, 'rules').mockReturnValue([]);
    expect(passed(await run(pick('mcp-010-', 'mcp-010b-')))).toEqual([]);
  });
});
