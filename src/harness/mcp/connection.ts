/**
 * One MCP server's connection (the client layer of docs/harness-rules.md#mcp-tools): connect
 * over stdio or Streamable HTTP, list its tools, call them, and reconnect
 * after a disconnect. Every state change is one `mcp_server` event:
 *
 *   connecting(attempt 1) -> connected | failed | timeout        first connect: one attempt
 *   connected -> disconnected -> [delay] connecting(attempt n) -> ...   up to `reconnect.attempts`,
 *                the first after `baseDelayMs`, each delay doubled; the last failure is final
 *
 * Nothing here throws into the harness or leaves a rejection unhandled: a
 * connect that fails is an event and a state; a call that gets no result is a
 * ToolFault; SDK protocol errors go to `client.onerror`, which keeps them.
 */
import { FAULTLINE_VERSION } from '../../version.js';
import type { SessionFields } from '../../events/emitter.js';
import { callFault, closedMidCall, connectErrorCode, notConnected } from './call-fault.js';
import { MAX_TIMER_MS, type McpServerSpec } from './config.js';
import type { McpCallResult } from './content.js';
import type { McpCallOptions, McpCallTarget } from './mcp-tool.js';
import { remoteTools, type RemoteTool } from './remote-tool.js';
import type { McpClient, McpSdk } from './sdk.js';
import type { Slots } from './slots.js';

export type McpServerEvent = Omit<SessionFields<'mcp_server'>, 'server'>;

/** `connecting`: the first connect is in progress; `reconnecting`: after a disconnect, waiting or connecting again. */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed';

export interface ConnectionDeps {
  emit: (event: McpServerEvent) => void;
  /** The listed tools (first listing and every later one); returns tools_changed, or undefined for the first. */
  onTools: (tools: RemoteTool[]) => number | undefined;
  slots: Slots;
  sdk: () => Promise<McpSdk>;
  now: () => number;
}

const STDERR_TAIL = 2_000;
const MAX_PAGES = 100;

export class McpConnection implements McpCallTarget {
  state: ConnectionState = 'idle';
  /** The attempt in progress or last made, within the current connect cycle. */
  attempt = 0;
  /** A short description of the last failure, for the model-facing "not available" text. */
  lastError = '';
  private client: McpClient | null = null;
  private sdk: McpSdk | null = null;
  private connectedAt = 0;
  private stderrTail = '';
  private readonly closing = new AbortController();
  private cycle: Promise<void> = Promise.resolve();
  private firstDone!: () => void;
  /** Resolves when the first connect has settled (connected, failed, timed out or closed). */
  readonly firstSettled = new Promise<void>((resolve) => (this.firstDone = resolve));

  constructor(
    readonly spec: McpServerSpec,
    private readonly deps: ConnectionDeps,
  ) {}

  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'connecting';
    this.cycle = this.runCycle(1).finally(() => this.firstDone());
  }

  async close(): Promise<void> {
    this.closing.abort(new Error('closed'));
    this.state = 'closed';
    const client = this.client;
    this.client = null;
    await Promise.all([safeClose(client), this.cycle]);
    this.firstDone();
  }

  async call(tool: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpCallResult> {
    const client = this.client;
    const sdk = this.sdk;
    const label = options.label;
    if (!client || !sdk || this.state !== 'connected') throw notConnected(this.spec.name, label, this.state);
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        onprogress: options.onProgress,
        resetTimeoutOnProgress: true,
        // The harness's own timer (execute.ts) is the call's timeout and sends notifications/cancelled
        // through the signal; the SDK's must never fire first.
        timeout: Math.min(MAX_TIMER_MS, options.timeoutMs * 2 + 1_000),
      })) as McpCallResult;
    } catch (error) {
      if (options.signal.aborted) throw error; // our stop (timeout, abort, cascade): the pipeline decides the kind
      if (client !== this.client) throw closedMidCall(this.spec.name, label);
      const { fault, transportLost } = callFault(sdk, this.spec.name, label, error);
      if (transportLost) this.lost(client, 'unreachable');
      throw fault;
    }
  }

  /** Connect attempts of one cycle: 1 for the first connect, `reconnect.attempts` after a disconnect. */
  private async runCycle(attempts: number, delayFirst = false): Promise<void> {
    const { baseDelayMs } = this.spec.reconnect;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (delayFirst && !(await sleep(baseDelayMs * 2 ** (attempt - 1), this.closing.signal))) return;
      if (this.closing.signal.aborted) return;
      this.attempt = attempt;
      if (await this.attemptOnce(attempt, attempt < attempts)) return;
    }
    if (!this.closing.signal.aborted) this.state = 'failed';
  }

  private async attemptOnce(attempt: number, willRetry: boolean): Promise<boolean> {
    let release: () => void;
    try {
      release = await this.deps.slots.acquire(this.closing.signal);
    } catch {
      return false; // closed while waiting for a slot
    }
    const started = this.deps.now();
    const elapsed = () => Math.max(0, Math.round(this.deps.now() - started));
    this.deps.emit({ state: 'connecting', duration_ms: 0, attempt });
    // This attempt's own signal, never aborted once the attempt is over: the SDK keeps its abort
    // listeners on a request's signal, and a later abort would send notifications/cancelled for
    // requests that completed long ago (AbortSignal.timeout or any() would do exactly that).
    const stop = new AbortController();
    const signal = stop.signal;
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), stop.abort(new Error('connect timeout'))), Math.min(MAX_TIMER_MS, this.spec.connectTimeoutMs));
    const onClose = () => stop.abort(new Error('closed'));
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    const request = { signal, timeout: Math.min(MAX_TIMER_MS, this.spec.connectTimeoutMs + 1_000) };
    let client: McpClient | null = null;
    try {
      const sdk = (this.sdk ??= await this.deps.sdk());
      client = new sdk.Client({ name: 'faultline', version: FAULTLINE_VERSION }, { capabilities: {} });
      client.onerror = (error) => void (this.lastError = error.message.slice(0, 300));
      await untilAborted(client.connect(this.transport(sdk), request), signal);
      const tools = await untilAborted(listAllTools(client, request), signal);
      if (this.closing.signal.aborted) throw new Error('closed');
      this.client = client;
      this.state = 'connected';
      this.connectedAt = this.deps.now();
      const live = client;
      live.onclose = () => this.lost(live, 'closed');
      live.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => void this.relist(live));
      const changed = this.deps.onTools(tools);
      this.deps.emit({ state: 'connected', duration_ms: elapsed(), attempt, tools_listed: tools.length, ...(changed !== undefined ? { tools_changed: changed } : {}) });
      return true;
    } catch (error) {
      await safeClose(client);
      if (this.closing.signal.aborted) return false;
      this.lastError = timedOut ? `no answer within ${this.spec.connectTimeoutMs} ms` : describe(error, this.stderrTail);
      this.deps.emit({ state: timedOut ? 'timeout' : 'failed', duration_ms: elapsed(), attempt, will_retry: willRetry, error_code: timedOut ? 'connect_timeout' : connectErrorCode(this.sdk, error) });
      return false;
    } finally {
      clearTimeout(timer);
      this.closing.signal.removeEventListener('abort', onClose);
      release();
    }
  }

  private transport(sdk: McpSdk) {
    const t = this.spec.transport;
    if (t.kind === 'http') return new sdk.StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers: { ...t.headers } } });
    const stdio = new sdk.StdioClientTransport({ command: t.command, args: [...t.args], env: { ...t.env }, cwd: t.cwd, stderr: 'pipe' });
    // Read stderr (an unread pipe fills and blocks the server) and keep its tail for the failure text.
    this.stderrTail = '';
    stdio.stderr?.on('data', (chunk: Buffer) => void (this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL)));
    return stdio;
  }

  /** The connection of `client` is gone (the process exited, or HTTP is unreachable): report it, then reconnect. */
  private lost(client: McpClient, code: string): void {
    if (client !== this.client || this.closing.signal.aborted) return;
    this.client = null;
    this.state = 'reconnecting';
    void safeClose(client);
    const attempts = this.spec.reconnect.attempts;
    this.deps.emit({ state: 'disconnected', duration_ms: Math.max(0, Math.round(this.deps.now() - this.connectedAt)), will_retry: attempts > 0, error_code: code });
    this.lastError = `it disconnected (${code})`;
    this.attempt = 0;
    this.cycle = this.runCycle(attempts, true);
  }

  /** notifications/tools/list_changed: read the list again; an event only when it differs from what was registered. */
  private async relist(client: McpClient): Promise<void> {
    try {
      const tools = await listAllTools(client, { timeout: this.spec.connectTimeoutMs });
      if (client !== this.client) return;
      const changed = this.deps.onTools(tools);
      if (changed) this.deps.emit({ state: 'connected', duration_ms: 0, tools_listed: tools.length, tools_changed: changed });
    } catch {
      // The server may be going away; its next call or the close handler tells.
    }
  }
}

/** tools/list, every page. A server without the tools capability has none. */
async function listAllTools(client: McpClient, options: { signal?: AbortSignal; timeout: number }): Promise<RemoteTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const out: RemoteTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listTools(cursor ? { cursor } : undefined, options);
    out.push(...remoteTools(listed.tools));
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** Rejects when `signal` aborts, whatever the promise does; its later rejection is absorbed. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Waits `ms`; false when `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), Math.min(ms, MAX_TIMER_MS));
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function safeClose(client: McpClient | null): Promise<void> {
  if (!client) return;
  client.onclose = undefined;
  try {
    await client.close();
  } catch {
    // already closed, or the process is gone
  }
}

function describe(error: unknown, stderr: string): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
  const lastLine = stderr.trim().split('\n').at(-1)?.trim().slice(0, 300);
  return lastLine ? `${message}; its stderr ends: ${lastLine}` : message;
}
