/**
 * One tool as an MCP server lists it (tools/list), reduced to what the harness
 * keeps, and the comparison that tells a changed definition from a reordered
 * list (docs/harness-rules.md#stable-prefix: order is ours to fix; a changed description is news).
 */
import { isDeepStrictEqual } from 'node:util';

export interface RemoteTool {
  /** The server's own name for the tool (used in tools/call). */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Hints the server gives about itself; untrusted unless the server is trusted (MCP spec). */
  readOnlyHint: boolean;
}

/** The listing's raw tool objects as RemoteTools (anything malformed is skipped by the SDK's schema before this). */
export function remoteTools(listed: readonly { name: string; description?: string; title?: string; inputSchema: unknown; annotations?: { readOnlyHint?: boolean } }[]): RemoteTool[] {
  return listed.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    inputSchema: typeof t.inputSchema === 'object' && t.inputSchema !== null ? (t.inputSchema as Record<string, unknown>) : { type: 'object' },
    readOnlyHint: t.annotations?.readOnlyHint === true,
  }));
}

/**
 * How many tools differ between what the session registered first and a new
 * listing: added, removed, or a different description or input schema. The
 * comparison is by name, so a listing in another order counts 0.
 */
export function changedTools(first: readonly RemoteTool[], next: readonly RemoteTool[]): number {
  const before = new Map(first.map((t) => [t.name, t]));
  const after = new Map(next.map((t) => [t.name, t]));
  let changed = 0;
  for (const [name, tool] of after) {
    const old = before.get(name);
    if (!old || old.description !== tool.description || !isDeepStrictEqual(old.inputSchema, tool.inputSchema)) changed++;
  }
  for (const name of before.keys()) if (!after.has(name)) changed++;
  return changed;
}
