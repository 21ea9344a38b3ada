/**
 * Per-server trust as permission rules (docs/harness-rules.md#mcp-reconnect): an MCP tool's arguments
 * cannot be judged semantically (you cannot tell whether `mcp__db__query`
 * drops a table), so calls are judged by the server they go to. Expressed as
 * a rule source for the ordinary chain, not a step of its own:
 *
 * - `deny`: a deny rule for `mcp__<server>__*`: refused before everything
 *   else (chain step 1), whatever the mode, hook or allow rules;
 * - `trusted`: an allow rule for `mcp__<server>__*` (step 10): deny rules,
 *   ask rules and a PreToolUse hook still come first;
 * - `ask` (the default): no rule — the call falls to the chain's default ask
 *   (headless: deny), which a human, a hook or an allow rule naming one tool
 *   (`tool: mcp__db__read_rows`) can lift.
 *
 * MCP tools are never read-only to the chain (their annotations are the
 * server's claims), so the read-only auto-allow never lets one through.
 */
import type { PermissionRule } from '../permissions/types.js';
import type { McpTrust } from './config.js';
import { MCP_TOOL_PREFIX } from './names.js';

export function trustRuleId(server: string): string {
  return `mcp_server:${server}`;
}

export function trustRules(servers: readonly { name: string; trust: McpTrust }[]): PermissionRule[] {
  return servers.flatMap(({ name, trust }): PermissionRule[] =>
    trust === 'ask' ? [] : [{ id: trustRuleId(name), effect: trust === 'deny' ? 'deny' : 'allow', tool: `${MCP_TOOL_PREFIX}${name}__*` }],
  );
}
