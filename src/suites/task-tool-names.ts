/**
 * The resident and deferred tool names of a task as its sessions see them,
 * MCP tools included (for `faultline lint-tools`). MCP names are only known
 * from the servers, so each distinct server configuration is started once,
 * listed and stopped; a server that cannot be listed is reported, not skipped
 * silently.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MCP_TOOL_PREFIX } from '../harness/mcp/names.js';
import { ToolRegistry } from '../harness/tools/registry.js';
import type { LoadedTask } from './load-suite.js';
import { needsToolSearch } from './offered-tools.js';
import { TaskMcp } from './task-mcp.js';
import { taskTools } from './task-pipeline.js';

export interface TaskToolNames {
  resident: string[];
  deferred: string[];
  /** `server: why` for each MCP server whose tools could not be listed (so were not checked). */
  unlisted: string[];
}

interface Listing {
  names: string[];
  problem: string | null;
}

/** The task has tools that are left out of the request (deferred built-ins or a deferred MCP server). */
export function hasDeferredTools(task: LoadedTask): boolean {
  return needsToolSearch(task);
}

/** `cache` is shared across tasks, so a server configured the same way in many tasks is started once. */
export async function taskToolNames(task: LoadedTask, cache: Map<string, Promise<Listing>> = new Map()): Promise<TaskToolNames> {
  const { registry, deferred } = taskTools(task);
  const resident = registry.names().filter((n) => !registry.isDeferred(n));
  const out: TaskToolNames = { resident, deferred: [...deferred], unlisted: [] };
  for (const [name, settings] of Object.entries(task.mcp_servers ?? {})) {
    const key = JSON.stringify([resolve(task.file), name, settings]);
    let listing = cache.get(key);
    if (!listing) cache.set(key, (listing = listServer({ ...task, mcp_servers: { [name]: settings } }, name)));
    const { names, problem } = await listing;
    if (problem) out.unlisted.push(`${name}: ${problem}`);
    (settings.deferred === false ? out.resident : out.deferred).push(...names);
  }
  return out;
}

async function listServer(task: LoadedTask, server: string): Promise<Listing> {
  const workspace = mkdtempSync(join(tmpdir(), 'faultline-lint-'));
  const mcp = new TaskMcp(task, new ToolRegistry([]));
  try {
    mcp.prepare(workspace);
    await mcp.launch(() => {});
    await mcp.servers?.settled();
    const names = mcp.servers?.toolNames(server) ?? [];
    const connected = mcp.servers?.unavailable(`${MCP_TOOL_PREFIX}${server}__x`) === null;
    return { names, problem: connected ? null : `could not be listed (${mcp.servers?.lastError(server) || 'not connected'})` };
  } catch (error) {
    return { names: [], problem: error instanceof Error ? error.message : String(error) };
  } finally {
    await mcp.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}
