/**
 * Stage ①: find the tool. A missing tool is normal model behaviour, not an
 * exception (docs/harness-rules.md#unknown-tool): answer with an is_error result listing what exists.
 */
import type { Tool } from '../tools/tool.js';
import type { StageFailure, StageResult } from './call.js';

export interface ToolLookup {
  get(name: string): Tool | undefined;
  names(): string[];
  /** Deferred (docs/harness-rules.md#deferred-tools) and not yet activated by tool_search: its schema was never sent. */
  isUnloaded?(name: string): boolean;
  /** Deferred at all (activated or not): `tool_call.source` is `deferred`. */
  isDeferred?(name: string): boolean;
  /** The tool's source is not ready (an MCP server connecting, reconnecting or failed), registered or not. */
  unavailable?(name: string): Unavailable | null;
}

/** Why a tool cannot be called now: the model-facing text says what to do (e.g. retry shortly). */
export interface Unavailable {
  /** error_code of the tool_failure (`mcp_server_connecting`, `mcp_server_failed`...). */
  code: string;
  message: string;
}

/**
 * "Not there yet" is answered before "not there" (docs/harness-rules.md#mcp-pending): a tool
 * of a server still connecting is `unavailable` with "retry shortly", never
 * `not_found`, or the model concludes the capability does not exist.
 */
export function lookupTool(registry: ToolLookup, name: string): StageResult<Tool> {
  const unavailable = registry.unavailable?.(name);
  if (unavailable) return { ok: false, failure: { kind: 'unavailable', errorCode: unavailable.code, message: unavailable.message } };
  const tool = registry.get(name);
  // Exists but not loaded: its schema was never sent, so whatever arguments came with the call were
  // guessed; even ones that happen to be valid must not run it (the model would keep calling tools
  // blind). The answer names the real cause and the one-step fix (the guide's two kinds of "not there").
  if (tool && registry.isUnloaded?.(name)) return { ok: false, failure: notLoaded(name) };
  if (tool) return { ok: true, value: tool };
  const names = registry.names();
  const unloaded = names.filter((n) => registry.isUnloaded?.(n));
  const callable = names.filter((n) => !unloaded.includes(n));
  return {
    ok: false,
    failure: {
      kind: 'not_found',
      errorCode: 'unknown_tool',
      message:
        `Tool "${name.slice(0, 64)}" does not exist. Available tools: ${callable.join(', ') || '(none)'}. ` +
        (unloaded.length > 0
          ? `Deferred tools, not loaded yet (call tool_search with query "select:NAME" before calling one): ${unloaded.join(', ')}. ` +
            'Call an available tool instead, or load a deferred one first.'
          : 'Call one of these instead.'),
    },
  };
}

/**
 * One answer for every call of an unloaded deferred tool, whatever its
 * arguments. `invalid_input` / `schema_not_loaded`: the call was made without
 * the tool's schema, so its input was never written against it.
 */
export function notLoaded(name: string): StageFailure {
  return {
    kind: 'invalid_input',
    errorCode: 'schema_not_loaded',
    message:
      `The tool "${name}" exists but is not loaded: its schema was not sent to you, so it was not run. ` +
      `Call tool_search with query "select:${name}" to load it, then call ${name} again.`,
  };
}
