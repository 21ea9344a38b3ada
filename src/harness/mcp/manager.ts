/**
 * The MCP host side of a session (docs/harness-rules.md#mcp-tools): starts the configured servers
 * (connects bounded by the shared slots: 3 local, 20 remote at once), puts
 * their tools into the session's registry as they arrive, answers "still
 * connecting" for servers that are not ready (docs/harness-rules.md#mcp-pending), and closes
 * everything at session end.
 *
 * Tools enter the registry once, on their server's first listing that has
 * them, with the definition of that listing; the registry sorts MCP tools by
 * name, so connection order never changes the request prefix (docs/harness-rules.md#stable-prefix). A
 * later listing (reconnect, tools/list_changed) adds tools that are new and
 * only reports the others as changed: the model keeps the definition it was
 * shown, and a server that rewrites its descriptions after connecting shows
 * up as `mcp_server.tools_changed` instead of silently busting the cache.
 */
import type { ToolRegistry } from '../tools/registry.js';
import type { Unavailable } from '../pipeline/lookup.js';
import type { McpServerSpec } from './config.js';
import { McpConnection, type McpServerEvent } from './connection.js';
import { createMcpTool } from './mcp-tool.js';
import { assignToolNames, serverOf } from './names.js';
import { changedTools, type RemoteTool } from './remote-tool.js';
import { loadMcpSdk, type McpSdk } from './sdk.js';
import { sharedConnectSlots, type ConnectSlots } from './slots.js';

/** What the manager needs from a registry: ToolRegistry has it. */
export type McpToolSink = Pick<ToolRegistry, 'register' | 'has' | 'setAvailability'>;

export interface McpManagerOptions {
  /** Receives every mcp_server event (the session emitter; absent in `lint-tools`). */
  emit?: (server: string, event: McpServerEvent) => void;
  slots?: ConnectSlots;
  sdk?: () => Promise<McpSdk>;
  now?: () => number;
}

interface ServerEntry {
  spec: McpServerSpec;
  connection: McpConnection;
  /** The first listing of each tool (what was registered). */
  registered: Map<string, RemoteTool>;
  /** Server tool name -> registered name. */
  names: Map<string, string>;
  /** The server has listed its tools at least once this session. */
  listed: boolean;
}

export class McpManager {
  private readonly servers = new Map<string, ServerEntry>();

  constructor(
    specs: readonly McpServerSpec[],
    private readonly registry: McpToolSink,
    options: McpManagerOptions = {},
  ) {
    const slots = options.slots ?? sharedConnectSlots();
    for (const spec of specs) {
      const entry: ServerEntry = { spec, registered: new Map(), names: new Map(), listed: false, connection: null as unknown as McpConnection };
      entry.connection = new McpConnection(spec, {
        emit: (event) => options.emit?.(spec.name, event),
        onTools: (tools) => this.onTools(entry, tools),
        slots: spec.transport.kind === 'stdio' ? slots.local : slots.remote,
        sdk: options.sdk ?? loadMcpSdk,
        now: options.now ?? (() => performance.now()),
      });
      this.servers.set(spec.name, entry);
    }
    registry.setAvailability((name) => this.unavailable(name));
  }

  /** Starts every server's first connect (not awaited: see `ready`). */
  start(): void {
    for (const { connection } of this.servers.values()) connection.start();
  }

  /** Resolves when every `blocking` server's first connect has settled (whatever the outcome). */
  async ready(): Promise<void> {
    await Promise.all([...this.servers.values()].filter((s) => s.spec.startup === 'blocking').map((s) => s.connection.firstSettled));
  }

  /** Resolves when every server's first connect has settled. */
  async settled(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.connection.firstSettled));
  }

  serverNames(): string[] {
    return [...this.servers.keys()];
  }

  /** Servers whose tools cannot be listed yet: first connect, or reconnecting after a disconnect. */
  pendingServers(): string[] {
    return [...this.servers.values()].filter((s) => s.connection.state === 'connecting' || s.connection.state === 'reconnecting').map((s) => s.spec.name);
  }

  /** Why a server is not connected (its last failure), or '' — for people; the model gets `unavailable`. */
  lastError(server: string): string {
    return this.servers.get(server)?.connection.lastError ?? '';
  }

  /** The registered tool names of a server (sorted), e.g. for lint-tools. */
  toolNames(server: string): string[] {
    return [...(this.servers.get(server)?.names.values() ?? [])].sort();
  }

  /**
   * The registry's availability check: a name of a configured server that is
   * not connected answers why, and when to retry. Any other name: null.
   */
  unavailable(name: string): Unavailable | null {
    const server = serverOf(name);
    const entry = server === null ? undefined : this.servers.get(server);
    if (!entry) return null;
    const c = entry.connection;
    const max = entry.spec.reconnect.attempts;
    switch (c.state) {
      case 'connected':
        return null;
      case 'idle':
      case 'connecting':
        return { code: 'mcp_server_connecting', message: `The MCP server "${server}" is still connecting — its tools are not available yet. Retry shortly.` };
      case 'reconnecting':
        return {
          code: 'mcp_server_reconnecting',
          message: `The MCP server "${server}" disconnected and is reconnecting${c.attempt > 0 ? ` (attempt ${c.attempt} of ${max})` : ''} — retry shortly.`,
        };
      case 'failed':
        return {
          code: 'mcp_server_failed',
          message: `The MCP server "${server}" is not available: ${c.lastError || 'it could not be connected'}. Its tools cannot be used in this session; use another approach.`,
        };
      case 'closed':
        return { code: 'mcp_server_closed', message: `The MCP server "${server}" was shut down; its tools cannot be used any more.` };
    }
  }

  /** Closes every connection and stops every server process; safe to call more than once. */
  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.connection.close()));
  }

  private onTools(entry: ServerEntry, tools: RemoteTool[]): number | undefined {
    const first = !entry.listed;
    entry.listed = true;
    const before = [...entry.registered.values()];
    const fresh = tools.filter((t) => !entry.registered.has(t.name));
    const names = assignToolNames(entry.spec.name, fresh.map((t) => t.name), entry.names);
    for (const tool of fresh) {
      const name = names.get(tool.name)!;
      entry.names.set(tool.name, name);
      entry.registered.set(tool.name, tool);
      if (!this.registry.has(name)) this.registry.register(createMcpTool(name, tool, entry.spec, entry.connection), { deferred: entry.spec.deferred });
    }
    return first ? undefined : changedTools(before, tools);
  }
}
