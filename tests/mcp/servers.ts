/** Test helper: MCP server specs for the real servers the MCP tests run, and what they leave behind. */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, expect } from 'vitest';
import { join, resolve } from 'node:path';
import { defaultServerSpec, type McpServerSpec } from '../../src/harness/mcp/config.js';
import type { McpServerEvent } from '../../src/harness/mcp/connection.js';
import { McpManager } from '../../src/harness/mcp/manager.js';
import { Slots } from '../../src/harness/mcp/slots.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';

const root = resolve(import.meta.dirname, '../..');
/** server-everything's bin, from node_modules (a pinned devDependency; never fetched at test time). */
export const EVERYTHING_BIN = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FAULT_SERVER = join(root, 'suites/faults/mcp/fault-server.mjs');

export function everythingSpec(over: Partial<McpServerSpec> = {}): McpServerSpec {
  return { ...defaultServerSpec('everything', { kind: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], env: {} }), trust: 'trusted', ...over };
}

export function faultSpec(name: string, args: string[], over: Partial<McpServerSpec> = {}): McpServerSpec {
  return { ...defaultServerSpec(name, { kind: 'stdio', command: process.execPath, args: [FAULT_SERVER, ...args], env: {} }), trust: 'trusted', ...over };
}

export interface RecordedEvent extends McpServerEvent {
  server: string;
  /** When it was emitted (Date.now()). */
  at: number;
}

export function recorder(): { events: RecordedEvent[]; emit: (server: string, event: McpServerEvent) => void; states: (server?: string) => string[] } {
  const events: RecordedEvent[] = [];
  return {
    events,
    emit: (server, event) => void events.push({ server, at: Date.now(), ...event }),
    states: (server) => events.filter((e) => server === undefined || e.server === server).map((e) => e.state),
  };
}

/** Live child processes of this process (Linux /proc), to show a test left no server running. */
export function childPids(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z') out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

export { waitFor } from '../helpers/wait-for.js';

/**
 * For a test file: managers started with `start` are closed after each test,
 * and the file fails if any promise was rejected unhandled while it ran
 * (an SDK rejection escaping would crash a real harness).
 */
export function mcpTestFile(): { start: (specs: McpServerSpec[], options?: { slots?: number }) => { registry: ToolRegistry; manager: McpManager; log: ReturnType<typeof recorder> } } {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  const managers: McpManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
    expect(rejections).toEqual([]);
  });
  return {
    start(specs, options = {}) {
      const log = recorder();
      const registry = new ToolRegistry([]);
      const manager = new McpManager(specs, registry, { emit: log.emit, slots: { local: new Slots(options.slots ?? 3), remote: new Slots(20) } });
      managers.push(manager);
      manager.start();
      return { registry, manager, log };
    },
  };
}
