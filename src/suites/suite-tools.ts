/**
 * The tool definitions a set of tasks puts on the wire: every tool any task
 * registers, in the registry's stable order, from the registry's one
 * definitions path (docs/harness-rules.md#descriptions).
 */
import { createRegistry } from '../harness/tools/builtin.js';
import type { ToolDefinition } from '../providers/types.js';
import type { LoadedTask } from './load-suite.js';

export function suiteToolDefinitions(tasks: LoadedTask[]): ToolDefinition[] {
  const names = new Set<string>();
  for (const task of tasks) for (const name of createRegistry(task.tools).names()) names.add(name);
  return createRegistry([...names]).definitions();
}
