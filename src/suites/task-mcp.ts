/**
 * A task's MCP servers: from its `mcp_servers:` settings to running
 * connections whose tools are in the task's registry. `prepare` resolves the
 * settings (placeholders, packages) and throws a configuration error naming
 * the setting; `launch` starts the connects, emitting `mcp_server` events, and
 * waits for the `blocking` ones; `close` stops every server process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { defaultServerSpec, DEFAULT_RECONNECT, type McpServerSpec, type McpTransportSpec } from '../harness/mcp/config.js';
import type { McpServerEvent } from '../harness/mcp/connection.js';
import { McpManager, type McpToolSink } from '../harness/mcp/manager.js';
import { trustRules } from '../harness/mcp/trust-rules.js';
import type { PermissionRule } from '../harness/permissions/types.js';
import type { LoadedTask } from './load-suite.js';
import { PLACEHOLDER, type McpServerSettings } from './mcp-schema.js';

export class McpConfigError extends Error {
  readonly code = 'MCP_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'McpConfigError';
  }
}

export class TaskMcp {
  private specs: McpServerSpec[] = [];
  private manager: McpManager | null = null;

  constructor(
    private readonly task: LoadedTask,
    private readonly registry: McpToolSink,
  ) {}

  serverNames(): string[] {
    return Object.keys(this.task.mcp_servers ?? {});
  }

  /** The per-server trust rules for the permission chain (static: from the settings). */
  rules(): PermissionRule[] {
    return trustRules(Object.entries(this.task.mcp_servers ?? {}).map(([name, s]) => ({ name, trust: s.trust ?? 'ask' })));
  }

  /** Servers still connecting (for tool_search); all of them before launch. */
  pendingServers(): string[] {
    return this.manager ? this.manager.pendingServers() : this.serverNames();
  }

  /** Resolves the settings for this workspace. Throws McpConfigError (a missing package, an unset ${env:...}). */
  prepare(workspace: string, env: NodeJS.ProcessEnv = process.env): void {
    this.specs = Object.entries(this.task.mcp_servers ?? {}).map(([name, s]) => serverSpec(this.task, name, s, workspace, env));
  }

  /** Starts every server, then waits for the blocking ones (or `signal`). */
  async launch(emit: (server: string, event: McpServerEvent) => void, signal?: AbortSignal): Promise<void> {
    if (this.specs.length === 0 || this.manager) return;
    this.manager = new McpManager(this.specs, this.registry, { emit });
    this.manager.start();
    await untilAbort(this.manager.ready(), signal);
  }

  async close(): Promise<void> {
    await this.manager?.close();
  }

  /** The manager (after launch), e.g. for lint-tools. */
  get servers(): McpManager | null {
    return this.manager;
  }
}

function serverSpec(task: LoadedTask, name: string, s: McpServerSettings, workspace: string, env: NodeJS.ProcessEnv): McpServerSpec {
  const where = `${task.file}: task ${task.id}: mcp_servers.${name}`;
  const suiteDir = dirname(resolve(task.file));
  const fill = (value: string, field: string): string =>
    value.replace(PLACEHOLDER, (_, key: string) => {
      if (key === 'workspace') return workspace;
      if (key === 'suite_dir') return suiteDir;
      const variable = key.slice('env:'.length);
      const found = env[variable];
      if (found === undefined) throw new McpConfigError(`${where}.${field}: the environment variable ${variable} is not set`);
      return found;
    });
  const fillAll = (record: Record<string, string> | undefined, field: string) =>
    Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, fill(v, `${field}.${k}`)]));
  const args = (s.args ?? []).map((a, i) => fill(a, `args.${i}`));
  let transport: McpTransportSpec;
  if (s.url !== undefined) {
    transport = { kind: 'http', url: fill(s.url, 'url'), headers: fillAll(s.headers, 'headers') };
  } else {
    const cwd = s.cwd === undefined ? workspace : resolve(workspace, fill(s.cwd, 'cwd'));
    const command = s.package !== undefined ? process.execPath : s.command === 'node' ? process.execPath : fill(s.command!, 'command');
    const fullArgs = s.package !== undefined ? [packageBin(s.package, suiteDir, where), ...args] : args;
    if (s.package === undefined) requireShippedFiles(s.command === 'node', s.args ?? [], args, cwd, where);
    transport = { kind: 'stdio', command, args: fullArgs, env: fillAll(s.env, 'env'), cwd };
  }
  const spec = defaultServerSpec(name, transport);
  return {
    ...spec,
    trust: s.trust ?? spec.trust,
    deferred: s.deferred ?? spec.deferred,
    startup: s.startup ?? spec.startup,
    callTimeoutMs: s.timeout_ms ?? spec.callTimeoutMs,
    connectTimeoutMs: s.connect_timeout_ms ?? spec.connectTimeoutMs,
    maxOutputTokens: s.max_output_tokens ?? spec.maxOutputTokens,
    reconnect: { attempts: s.reconnect?.attempts ?? DEFAULT_RECONNECT.attempts, baseDelayMs: s.reconnect?.base_delay_ms ?? DEFAULT_RECONNECT.baseDelayMs },
  };
}

/**
 * A server whose script is missing would only exit with Node's "Cannot find
 * module" on its own stderr, and the task would report a failed connect that
 * never names the file. So the files a suite ships with itself — an argument
 * written as `${suite_dir}/...` — and the script `node` runs must exist
 * before anything starts; otherwise a configuration error names the setting
 * and the file.
 */
function requireShippedFiles(isNode: boolean, raw: readonly string[], filled: readonly string[], cwd: string, where: string): void {
  // Node's script is its first argument unless that is an option (whose value we cannot tell from a path).
  const script = isNode && raw[0] !== undefined && !raw[0].startsWith('-') ? 0 : -1;
  filled.forEach((arg, i) => {
    const rawArg = raw[i] ?? '';
    // A script under the workspace may be written by the task's own files or setup, so only the suite's files are checked there.
    const fromSuite = rawArg.startsWith('${suite_dir}');
    const isScript = i === script && !rawArg.startsWith('${workspace}');
    if (!fromSuite && !isScript) return;
    const path = resolve(cwd, arg);
    if (!existsSync(path)) throw new McpConfigError(`${where}.args.${i}: ${path} does not exist (the file ${isScript ? 'the server runs' : 'the suite names'} is missing)`);
  });
}

/**
 * The JS file of an installed package's bin, found the way Node finds
 * packages (node_modules of the suite's directory and each parent). Never
 * downloads anything: a missing package is a configuration error.
 */
export function packageBin(pkg: string, fromDir: string, where: string): string {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(manifest)) {
      const { bin, name } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string>; name?: string };
      const entries = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
      const own = typeof bin === 'object' && bin !== null && name ? bin[name.split('/').at(-1)!] : undefined;
      const file = own ?? entries[0];
      if (!file) throw new McpConfigError(`${where}.package: ${pkg} has no "bin" to run`);
      return isAbsolute(file) ? file : join(dirname(manifest), file);
    }
    if (dirname(dir) === dir) break;
  }
  throw new McpConfigError(`${where}.package: ${pkg} is not installed where the suite can see it (node_modules from ${fromDir} up); install it (npm install --save-dev ${pkg}) — faultline never downloads a server at run time`);
}

function untilAbort(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    promise.then(done, done);
  });
}
