/**
 * The faults a real server from npm will not produce on demand, against the
 * stdio server in suites/faults/mcp/fault-server.mjs (the official SDK's server
 * side): a crash mid-call, a handshake slower than the connect timeout, a
 * server that exits at start, connects bounded to 3 at a time, a tool list
 * in another order on the next start, a close during a connect. No SDK
 * rejection may escape: the file fails on any unhandled rejection.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { executeTool, type ExecOutcome } from '../../src/harness/pipeline/execute.js';
import { executionFailure } from '../../src/harness/pipeline/serialize.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import { childPids, faultSpec, mcpTestFile, waitFor } from './servers.js';

const { start } = mcpTestFile();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tmp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-mcp-'));
  dirs.push(dir);
  return dir;
};

async function run(registry: ToolRegistry, name: string, input: unknown = {}) {
  const tool = registry.get(name)!;
  const outcome = await executeTool(tool, input, { workspace: '/tmp', sessionSignal: new AbortController().signal, timeoutMs: 10_000 });
  return { outcome, failure: outcome.kind === 'ok' ? null : executionFailure(tool, outcome as Exclude<ExecOutcome, { kind: 'ok' }>) };
}

describe('MCP faults', { timeout: 120_000 }, () => {
  it('fails the call of a server that exits mid-call with a clear result, then reconnects with back-off', async () => {
    const state = join(tmp(), 'generation');
    const { registry, manager, log } = start([faultSpec('flaky', ['--state', state, '--tools', 'crash,generation'], { deferred: false, reconnect: { attempts: 3, baseDelayMs: 50 } })]);
    await manager.ready();
    const crashed = await run(registry, 'mcp__flaky__crash');
    expect(crashed.failure).toMatchObject({ kind: 'exception', errorCode: 'mcp_connection_closed', message: expect.stringContaining('may or may not have taken effect') });
    expect(manager.unavailable('mcp__flaky__generation')?.code).toBe('mcp_server_reconnecting');
    await waitFor(() => manager.unavailable('mcp__flaky__generation') === null, 15_000, 'the reconnect');
    expect((await run(registry, 'mcp__flaky__generation')).outcome).toEqual({ kind: 'ok', output: { content: 'generation 2' } });
    expect(log.events.map((e) => [e.state, e.attempt ?? null])).toEqual([
      ['connecting', 1],
      ['connected', 1],
      ['disconnected', null],
      ['connecting', 1],
      ['connected', 1],
    ]);
    expect(log.events[2]).toMatchObject({ will_retry: true, error_code: 'closed' });
    expect(log.events[4]).toMatchObject({ tools_listed: 2, tools_changed: 0 });
  });

  it('gives up after the configured reconnect attempts, each delay doubling, and then answers "not available"', async () => {
    const state = join(tmp(), 'generation');
    const { registry, manager, log } = start([faultSpec('gone', ['--state', state, '--fail-restarts', '--tools', 'crash'], { deferred: false, reconnect: { attempts: 3, baseDelayMs: 100 } })]);
    await manager.ready();
    await run(registry, 'mcp__gone__crash');
    await waitFor(() => manager.unavailable('mcp__gone__crash')?.code === 'mcp_server_failed', 15_000, 'the last attempt');
    const after = log.events.slice(2);
    expect(after.map((e) => [e.state, e.attempt ?? null, e.will_retry ?? null])).toEqual([
      ['disconnected', null, true],
      ['connecting', 1, null],
      ['failed', 1, true],
      ['connecting', 2, null],
      ['failed', 2, true],
      ['connecting', 3, null],
      ['failed', 3, false],
    ]);
    // Waits before attempts 1, 2, 3: 100, 200, 400 ms.
    const waited = [after[1]!.at - after[0]!.at, after[3]!.at - after[2]!.at, after[5]!.at - after[4]!.at];
    waited.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual(100 * 2 ** i - 5));
    expect(manager.unavailable('mcp__gone__crash')?.message).toMatch(/is not available: .*start \d fails as asked.*Its tools cannot be used in this session/);
  });

  it('times out a handshake slower than the connect timeout, stops the process and reports it', async () => {
    const before = childPids().length;
    const { manager, log } = start([faultSpec('sluggish', ['--connect-delay-ms', '5000', '--tools', 'echo'], { connectTimeoutMs: 300 })]);
    expect(manager.unavailable('mcp__sluggish__echo')?.code).toBe('mcp_server_connecting');
    await manager.ready();
    expect(log.events.at(-1)).toMatchObject({ state: 'timeout', attempt: 1, will_retry: false, error_code: 'connect_timeout' });
    expect(manager.unavailable('mcp__sluggish__echo')).toMatchObject({ code: 'mcp_server_failed', message: expect.stringContaining('no answer within 300 ms') });
    await waitFor(() => childPids().length === before, 5_000, 'the timed-out server to exit');
  });

  it('reports a server that exits before the handshake as failed, with the end of its stderr', async () => {
    const { manager, log } = start([faultSpec('broken', ['--exit-at-start', '3'])]);
    await manager.ready();
    expect(log.events.at(-1)).toMatchObject({ state: 'failed', will_retry: false, error_code: 'closed' });
    expect(manager.unavailable('mcp__broken__anything')?.message).toContain('exiting at start as asked');
    expect(manager.pendingServers()).toEqual([]);
  });

  it('connects at most 3 local servers at a time', async () => {
    const specs = Array.from({ length: 5 }, (_, i) => faultSpec(`s${i}`, ['--connect-delay-ms', '300', '--tools', 'echo']));
    const { manager, log } = start(specs, { slots: 3 });
    await manager.ready();
    let inFlight = 0;
    let most = 0;
    for (const e of log.events) {
      if (e.state === 'connecting') most = Math.max(most, ++inFlight);
      else inFlight--;
    }
    expect(most).toBe(3);
    expect(log.events.filter((e) => e.state === 'connected')).toHaveLength(5);
  });

  it('sends the same definitions whatever order the server lists its tools in', async () => {
    const forward = start([faultSpec('srv', ['--tools', 'echo,generation,slow,fail'], { deferred: false })]);
    // A second start (generation 2) with --reorder lists the tools reversed.
    const state = join(tmp(), 'generation');
    writeFileSync(state, '1');
    const reversed = start([faultSpec('srv', ['--state', state, '--reorder', '--tools', 'echo,generation,slow,fail'], { deferred: false })]);
    await Promise.all([forward.manager.ready(), reversed.manager.ready()]);
    const wire = (r: ToolRegistry) => JSON.stringify(r.definitions());
    expect(forward.registry.names()).toEqual(['mcp__srv__echo', 'mcp__srv__fail', 'mcp__srv__generation', 'mcp__srv__slow']);
    expect(wire(reversed.registry)).toBe(wire(forward.registry));
  });

  it('closes cleanly in the middle of a connect: no event after, no process left, no rejection', async () => {
    const before = childPids().length;
    const { manager, log } = start([faultSpec('late', ['--connect-delay-ms', '3000', '--tools', 'echo'])]);
    await waitFor(() => childPids().length > before, 5_000, 'the server to start');
    await manager.close();
    const seen = log.events.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(log.events).toHaveLength(seen);
    expect(log.states()).toEqual(['connecting']);
    await waitFor(() => childPids().length === before, 5_000, 'the server to exit');
    expect(manager.unavailable('mcp__late__echo')?.code).toBe('mcp_server_closed');
  });
});
