/**
 * MCP tool names (docs/harness-rules.md#mcp-limits). Provider APIs require tool names to match
 * `^[a-zA-Z0-9_-]{1,64}$`, so a server's tool is registered as
 * `mcp__<server>__<tool>` with every other character replaced by `_`.
 *
 * Normalization is lossy: `get.sum` and `get_sum` both become `get_sum`, and a
 * name over 64 characters must be cut. The rules, deterministic whatever
 * order a server lists its tools in:
 *
 * 1. A server's tools are named in code-unit order of their ORIGINAL names;
 *    the first keeps the plain normalized name.
 * 2. A later tool whose plain name is taken, and any name over 64
 *    characters, becomes the normalized name cut to 55 characters plus `_`
 *    and the first 8 hex digits of the SHA-256 of the original tool name:
 *    stable across runs, and distinct for distinct originals.
 * 3. Names already given in this session are kept: a tool that appears later
 *    (after a reconnect or tools/list_changed) never takes over a name.
 *
 * Server names are not normalized here: the suite layer rejects a name that
 * is not already valid or contains `__`, so `mcp__a__b` always splits
 * unambiguously at the first `__` after the prefix (splitting at the last `__`
 * instead breaks on a server name with `__` in it; we refuse such names).
 */
import { createHash } from 'node:crypto';
import { byCodeUnit } from '../tools/compare.js';

export const MCP_TOOL_PREFIX = 'mcp__';
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const MAX_NAME = 64;
const HASH_CHARS = 8;

export function normalizeMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

/** Why a configured server name is refused, or null. */
export function serverNameProblem(name: string): string | null {
  if (!SERVER_NAME_PATTERN.test(name)) return 'server names are 1-32 letters, digits, _ or - (they become part of every tool name)';
  if (name.includes('__')) return 'a server name may not contain "__" (it separates server and tool in mcp__<server>__<tool>)';
  return null;
}

function plainName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${normalizeMcpName(tool)}`;
}

function hashedName(server: string, tool: string, salt = ''): string {
  const hash = createHash('sha256').update(tool + salt).digest('hex').slice(0, HASH_CHARS);
  return `${plainName(server, tool).slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}

/**
 * Registered names for `tools` (original names) of `server`, extending
 * `given` (original -> registered, this session so far) without changing it.
 */
export function assignToolNames(server: string, tools: readonly string[], given: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const out = new Map(given);
  const taken = new Set(given.values());
  for (const tool of [...new Set(tools)].sort(byCodeUnit)) {
    if (out.has(tool)) continue;
    let name = plainName(server, tool);
    for (let n = 0; name.length > MAX_NAME || taken.has(name); n++) name = hashedName(server, tool, n === 0 ? '' : String(n));
    out.set(tool, name);
    taken.add(name);
  }
  return out;
}

/** The server part of a registered MCP tool name, or null when it is not one. */
export function serverOf(name: string): string | null {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return null;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const end = rest.indexOf('__');
  return end > 0 ? rest.slice(0, end) : null;
}
