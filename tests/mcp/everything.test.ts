/**
 * The harness against a real MCP server from npm:
 * @modelcontextprotocol/server-everything (pinned devDependency), started
 * over stdio from node_modules, and over Streamable HTTP on a loopback port.
 * Its tools go through the registry and the execute stage exactly as in a
 * session (timeouts, progress, cancellation are the pipeline's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../src/harness/mcp/manager.js';
import { Slots } from '../../src/harness/mcp/slots.js';
import { executeTool, type ExecOutcome } from '../../src/harness/pipeline/execute.js';
import { executionFailure } from '../../src/harness/pipeline/serialize.js';
import { estimateTokens, MEDIA_TOKENS } from '../../src/harness/results/token-estimate.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import { defaultServerSpec } from '../../src/harness/mcp/config.js';
import { childPids, EVERYTHING_BIN, everythingSpec, mcpTestFile, recorder, waitFor } from './servers.js';

const { start } = mcpTestFile();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const run = (registry: ToolRegistry, name: string, input: unknown, timeoutMs?: number): Promise<ExecOutcome> => {
  const tool = registry.get(name)!;
  return executeTool(tool, input, { workspace: '/tmp', sessionSignal: new AbortController().signal, timeoutMs: timeoutMs ?? tool.timeoutMs! });
};

describe('server-everything over stdio', { timeout: 120_000 }, () => {
  // One server for the read-only checks: each start of server-everything costs a Node process.
  let shared: { registry: ToolRegistry; manager: McpManager; log: ReturnType<typeof recorder> };
  beforeAll(async () => {
    const log = recorder();
    const registry = new ToolRegistry([]);
    const manager = new McpManager([everythingSpec()], registry, { emit: log.emit, slots: { local: new Slots(3), remote: new Slots(20) } });
    manager.start();
    await manager.ready();
    shared = { registry, manager, log };
  }, 120_000);
  afterAll(() => shared.manager.close());

  it('lists its tools under mcp__everything__ and runs echo, get-sum and get-tiny-image', async () => {
    const { registry, log } = shared;
    expect(log.states()).toEqual(['connecting', 'connected']);
    const names = registry.names();
    for (const tool of ['echo', 'get-sum', 'trigger-long-running-operation', 'get-tiny-image']) expect(names).toContain(`mcp__everything__${tool}`);
    expect(log.events.at(-1)).toMatchObject({ attempt: 1, tools_listed: names.length });
    // Deferred by default: registered, callable once loaded, not in the request.
    expect(registry.definitions()).toEqual([]);
    expect(registry.isDeferred('mcp__everything__echo')).toBe(true);

    expect(await run(registry, 'mcp__everything__echo', { message: 'hi there' })).toEqual({ kind: 'ok', output: { content: 'Echo: hi there' } });
    expect(await run(registry, 'mcp__everything__get-sum', { a: 2, b: 40 })).toEqual({ kind: 'ok', output: { content: 'The sum of 2 and 40 is 42.' } });
    const image = await run(registry, 'mcp__everything__get-tiny-image', {});
    expect(image.kind).toBe('ok');
    const text = image.kind === 'ok' ? image.output.content : '';
    expect(text).toMatch(/^\[image image\/png, \d+ bytes: not shown, tool results reach the model as text here\]$/m);
    expect(estimateTokens(text)).toBeGreaterThanOrEqual(MEDIA_TOKENS);
  });

  it('keeps a call alive past its timeout while progress arrives, and times the same call out without it', async () => {
    const { registry } = shared;
    const long = 'mcp__everything__trigger-long-running-operation';
    // 1.8 s of work with a progress notification every 0.3 s: never 0.7 s without one.
    expect(await run(registry, long, { duration: 1.8, steps: 6 }, 700)).toMatchObject({ kind: 'ok', output: { content: expect.stringContaining('Long running operation completed') } });
    // The same 1.8 s in one step: the only notification comes at the end, after the timeout.
    expect(await run(registry, long, { duration: 1.8, steps: 1 }, 700)).toEqual({ kind: 'timeout', timeoutMs: 700 });
    // The cancelled request is gone from the connection: the next call is answered normally.
    expect(await run(registry, 'mcp__everything__echo', { message: 'after' })).toMatchObject({ kind: 'ok' });
  });

  it('turns the server refusing an argument into a tool_error result, not an exception', async () => {
    const { registry } = shared;
    const out = await run(registry, 'mcp__everything__get-resource-reference', { resourceId: 0 });
    expect(out.kind).toBe('tool_error');
    expect(executionFailure(registry.get('mcp__everything__get-resource-reference')!, out as Exclude<ExecOutcome, { kind: 'ok' }>)).toMatchObject({
      kind: 'tool_error',
      errorCode: 'is_error',
      message: expect.stringContaining('Invalid resourceId'),
    });
  });

  it('passes only the declared environment (plus HOME, PATH...) to the server, never ours, and stops it on close', async () => {
    const before = childPids().length;
    process.env.FAULTLINE_TEST_SECRET = 'sk-should-not-leak';
    try {
      const { registry, manager } = start([everythingSpec({ name: 'env', transport: { kind: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], env: { DECLARED: 'yes' } } })]);
      await manager.ready();
      expect(childPids().length).toBe(before + 1);
      const out = await run(registry, 'mcp__env__get-env', {});
      const text = out.kind === 'ok' ? out.output.content : '';
      expect(text).toContain('DECLARED');
      expect(text).not.toContain('sk-should-not-leak');
      await manager.close();
      await waitFor(() => childPids().length === before, 5_000, 'the server process to exit');
    } finally {
      delete process.env.FAULTLINE_TEST_SECRET;
    }
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function startHttpServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening on port')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`streamableHttp server exited (${code}): ${seen}`)));
  });
}

describe('server-everything over Streamable HTTP', { timeout: 120_000 }, () => {
  it('connects by URL, calls a tool, and reconnects after the server goes away and comes back', async () => {
    const port = await freePort();
    const server = await startHttpServer(port);
    const spec = { ...defaultServerSpec('remote', { kind: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} }), trust: 'trusted' as const, reconnect: { attempts: 5, baseDelayMs: 200 } };
    const { registry, manager, log } = start([spec]);
    await manager.ready();
    expect(log.states()).toEqual(['connecting', 'connected']);
    expect(await run(registry, 'mcp__remote__get-sum', { a: 1, b: 1 })).toMatchObject({ kind: 'ok', output: { content: 'The sum of 1 and 1 is 2.' } });

    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    const lost = await run(registry, 'mcp__remote__echo', { message: 'anyone?' });
    expect(lost.kind).toBe('exception');
    expect(executionFailure(registry.get('mcp__remote__echo')!, lost as Exclude<ExecOutcome, { kind: 'ok' }>).errorCode).toBe('mcp_connection_failed');
    expect(log.states()).toContain('disconnected');
    expect(manager.unavailable('mcp__remote__echo')?.code).toBe('mcp_server_reconnecting');

    await startHttpServer(port);
    await waitFor(() => manager.unavailable('mcp__remote__echo') === null, 15_000, 'the reconnect');
    expect(await run(registry, 'mcp__remote__echo', { message: 'back' })).toMatchObject({ kind: 'ok', output: { content: 'Echo: back' } });
    expect(log.events.filter((e) => e.state === 'connected')).toHaveLength(2);
    expect(log.events.filter((e) => e.state === 'connected').at(-1)).toMatchObject({ tools_changed: 0 });
  });
});
