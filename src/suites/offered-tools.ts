/**
 * Which tools a task offers the model, from its settings alone: the one
 * computation behind the registry a session builds (task-pipeline.ts) and the
 * load-time check that a script calls only tools it was offered
 * (suite-checks.ts). MCP tools are known only once their server lists them,
 * so any `mcp__<server>__*` name of a configured server counts as offered.
 */
import { MCP_TOOL_PREFIX } from '../harness/mcp/names.js';
import { builtinTools } from '../harness/tools/builtin.js';
import { TOOL_SEARCH_NAME } from '../harness/tools/tool-search.js';
import type { TaskSpec } from './schema.js';

type ToolSettings = Pick<TaskSpec, 'tools' | 'deferred_tools' | 'mcp_servers'>;

export function defaultToolNames(): string[] {
  return builtinTools().map((tool) => tool.name);
}

/**
 * The names the task's registry is built from (undefined: the built-in
 * defaults). Deferred tools without a `tools` list join the defaults.
 */
export function taskRegistryNames(task: ToolSettings): string[] | undefined {
  const deferred = task.deferred_tools ?? [];
  return task.tools ?? (deferred.length > 0 ? [...new Set([...defaultToolNames(), ...deferred])] : undefined);
}

/** The task gets `tool_search`: some built-in is deferred, or an MCP server's tools are (the default). */
export function needsToolSearch(task: ToolSettings): boolean {
  return (task.deferred_tools ?? []).length > 0 || Object.values(task.mcp_servers ?? {}).some((s) => s.deferred !== false);
}

/** The model may call `name` in this task (deferred tools count: they are offered through tool_search). */
export function offersTool(task: ToolSettings, name: string): boolean {
  if ((taskRegistryNames(task) ?? defaultToolNames()).includes(name)) return true;
  if (name === TOOL_SEARCH_NAME) return needsToolSearch(task);
  return Object.keys(task.mcp_servers ?? {}).some((server) => name.startsWith(`${MCP_TOOL_PREFIX}${server}__`));
}
