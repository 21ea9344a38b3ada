/**
 * Whether a run's tasks can only write a bounded amount into their
 * workspaces, and how much: what decides if faultline may put the workspaces
 * on a RAM-backed tmpfs on its own (workspace-tmpfs.ts).
 *
 * Bounded: the task's tools are only faultline's built-in file tools, which
 * write what the model sends (the script, or a live model's output) and
 * nothing else; and nothing of the task runs a command or a module of the
 * user's (a bash tool, a setup script, snapshot commands, hooks, defense
 * modules, MCP servers), any of which could write without bound (an
 * `npm install`). A setting this file does not know is taken as unbounded:
 * src/suites/task-writes.test.ts fails when a task setting or a built-in tool
 * is added without being sorted here.
 */
import type { LoadedTask } from './load-suite.js';
import { defaultToolNames, taskRegistryNames } from './offered-tools.js';

/** Built-in tools that write nothing but what the model's call carries (read-only ones write nothing at all). */
export const BOUNDED_TOOLS: ReadonlySet<string> = new Set(['read', 'write', 'edit', 'ls', 'glob', 'grep', 'explode', 'sleep', 'read_many']);

/** Task settings that run a command or the user's code in (or beside) the workspace, with what to call them. */
export const RUNS_CODE: Readonly<Record<string, string>> = {
  setup: 'a setup script',
  system_snapshot: 'system_snapshot commands',
  hooks: 'a hooks module',
  defenses: 'defense modules',
  mcp_servers: 'MCP servers',
};

/** Task settings that write nothing into the workspace beyond what the tools do (`tools` and `files` are judged apart). */
export const WRITES_NOTHING: ReadonlySet<string> = new Set([
  'id', 'description', 'scenario', 'failure_mode', 'source', 'defense', 'invariant', 'control_for', 'prompt', 'files', 'script',
  'abort_after_ms', 'expect', 'expect_unknown_tools', 'tools', 'max_turns', 'token_budget', 'max_tokens', 'tool_timeout_ms', 'system',
  'disabled_defenses', 'enabled_defenses', 'max_reminders', 'harness_faults', 'permission_mode', 'permissions', 'deferred_tools',
  'display_mode', 'wire', 'strict_tools', 'transport', 'transport_reason', 'wires', 'stream', 'streaming_tools', 'prompt_cache',
  'stream_idle_timeout_ms', 'first_byte_timeout_ms', 'max_retries', 'context_window', 'compact_at', 'compact_keep_turns',
  'context_manager', 'sandbox', 'sandbox_network', 'suite', 'file',
]);

export interface RunWrites {
  /** Why some task can write without bound (`suite/task: what`), or null when none can. */
  unbounded: string | null;
  /**
   * The most bytes one task brings into its workspace: its fixture files plus its script's strings (all a scripted
   * model can write; 3 bytes a UTF-16 unit, the most UTF-8 takes, so they need not be encoded).
   */
  largestTaskBytes: number;
}

/** What a task can write without bound, or null. */
export function unboundedWrites(task: LoadedTask): string | null {
  for (const key of Object.keys(task)) {
    if ((task as unknown as Record<string, unknown>)[key] === undefined) continue;
    const runs = RUNS_CODE[key];
    if (runs !== undefined) {
      // An empty MCP server map starts nothing.
      if (key === 'mcp_servers' && Object.keys(task.mcp_servers ?? {}).length === 0) continue;
      return runs;
    }
    if (!WRITES_NOTHING.has(key)) return `the setting ${key}`;
  }
  const tools = taskRegistryNames(task) ?? defaultToolNames();
  const other = tools.find((name) => !BOUNDED_TOOLS.has(name));
  return other === undefined ? null : `the ${other} tool`;
}

/** The run's summary: the first task that can write without bound, and the largest task's bytes. */
export function runWrites(tasks: readonly LoadedTask[]): RunWrites {
  let largestTaskBytes = 0;
  for (const task of tasks) {
    const why = unboundedWrites(task);
    if (why !== null) return { unbounded: `${task.suite}/${task.id} has ${why}`, largestTaskBytes };
    // Walked, not JSON.stringify'd: that cost 5-15 ms for the bench's 2,000 scripts, the walk well under 1 ms.
    let bytes = 3 * stringUnits(task.script);
    for (const content of Object.values(task.files ?? {})) bytes += Buffer.byteLength(content);
    if (bytes > largestTaskBytes) largestTaskBytes = bytes;
  }
  return { unbounded: null, largestTaskBytes };
}

/** UTF-16 units in the strings of a parsed YAML value. */
function stringUnits(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  let units = 0;
  if (Array.isArray(value)) for (const item of value) units += stringUnits(item);
  else for (const key in value) units += key.length + stringUnits((value as Record<string, unknown>)[key]);
  return units;
}
