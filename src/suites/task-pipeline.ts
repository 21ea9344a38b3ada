/**
 * A task's tool setup from its suite settings: the registry (with deferred
 * tools and tool_search), the session's pipeline services (permissions,
 * hooks, spill/snapshot dirs, display modes) and the session_start fields.
 *
 * Suite default: `acceptEdits`, headless. Scripted suites run in a throwaway
 * workspace with no one to answer prompts, so edits inside the workspace are
 * allowed, read-only work is allowed by the read-only list, and everything
 * else (other bash commands, anything outside) is refused unless the suite
 * allows it with a rule — the same as a CI agent run (`-p`) would be.
 */
import { dirname } from 'node:path';
import type { PermissionMode, SandboxMode } from '../events/labels.js';
import { chooseSandbox, type CommandSandbox, type SandboxChoice } from '../harness/sandbox/sandbox.js';
import { loadHooks } from '../harness/hooks/load-hooks.js';
import { createSessionServices } from '../harness/pipeline/session-services.js';
import type { PipelineServices } from '../harness/pipeline/services.js';
import { createRegistry } from '../harness/tools/builtin.js';
import { ToolRegistryError, type ToolRegistry } from '../harness/tools/registry.js';
import { createToolSearchTool } from '../harness/tools/tool-search.js';
import type { LoadedTask } from './load-suite.js';
import { needsToolSearch, taskRegistryNames } from './offered-tools.js';
import { TaskMcp } from './task-mcp.js';

export const SUITE_DEFAULT_MODE: PermissionMode = 'acceptEdits';

export interface TaskTools {
  registry: ToolRegistry;
  deferred: string[];
  mode: PermissionMode;
  headless: boolean;
  /** The task's MCP servers (null without `mcp_servers`): their tools join `registry` once launched. */
  mcp: TaskMcp | null;
}

/** Throws a ToolRegistryError on an unknown tool or a deferred tool the task does not have. */
export function taskTools(task: LoadedTask): TaskTools {
  const deferred = [...new Set(task.deferred_tools ?? [])];
  const registry = createRegistry(taskRegistryNames(task), { deferred });
  const missing = deferred.filter((name) => !registry.has(name));
  if (missing.length > 0) throw new ToolRegistryError('UNKNOWN_TOOL', `deferred_tools names tools the task does not have: ${missing.join(', ')}`);
  const mcp = Object.keys(task.mcp_servers ?? {}).length > 0 ? new TaskMcp(task, registry) : null;
  // MCP tools are deferred unless a server says otherwise, so their servers need tool_search too.
  if (needsToolSearch(task)) {
    registry.register(createToolSearchTool(registry, { mcpServers: mcp?.serverNames() ?? [], pendingServers: () => mcp?.pendingServers() ?? [] }));
  }
  return {
    registry,
    deferred,
    mode: task.permissions?.mode ?? task.permission_mode ?? SUITE_DEFAULT_MODE,
    headless: task.permissions?.headless ?? true,
    mcp,
  };
}

/**
 * The OS sandbox of a task's session: `--sandbox` when given, else the task's
 * `sandbox`, else auto. Throws SandboxUnavailableError for `required` on a
 * machine where bubblewrap does not work (the task errors; nothing runs).
 */
export function taskSandbox(task: LoadedTask, workspace: string, override?: SandboxMode): SandboxChoice {
  return chooseSandbox(override ?? task.sandbox ?? 'auto', { workspace, network: task.sandbox_network ?? false });
}

/**
 * `prepareWorkspace` makes a lazy workspace exist before the first tool call (see LazyWorkspace);
 * `workspaceDiscarded`: the workspace is removed when the session ends, so its snapshots are held in memory.
 */
export async function taskPipeline(
  task: LoadedTask,
  tools: TaskTools,
  workspace: string,
  sandbox: CommandSandbox | null = null,
  prepareWorkspace?: () => Promise<void>,
  workspaceDiscarded = false,
): Promise<PipelineServices> {
  const hooks = task.hooks ? await loadHooks(task.hooks, dirname(task.file)) : null;
  const p = task.permissions ?? {};
  return createSessionServices({
    workspace,
    mode: tools.mode,
    headless: tools.headless,
    human: p.human,
    // Configured rules first (their ids are reported when both match), then the per-server MCP trust rules.
    rules: [...(p.rules ?? []), ...(tools.mcp?.rules() ?? [])],
    disabledTools: p.disabled_tools,
    fuseThreshold: p.fuse_threshold,
    // A dead defense (harness fault) never acts: its chain step is skipped like a disabled one's.
    disabledDefenses: [...(task.disabled_defenses ?? []), ...(task.harness_faults?.dead_defenses ?? []), ...(task.harness_faults?.unwired_defenses ?? [])],
    hooks,
    displayModes: task.display_mode,
    sandbox,
    prepareWorkspace,
    workspaceDiscarded,
  });
}
