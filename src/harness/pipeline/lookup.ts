/**
 * Stage ①: find the tool. A missing tool is normal model behaviour, not an
 * exception (seed §5.3): answer with an is_error result listing what exists.
 */
import type { Tool } from '../tools/tool.js';
import type { StageResult } from './call.js';

export interface ToolLookup {
  get(name: string): Tool | undefined;
  names(): string[];
  /** Deferred (seed §10) and not yet activated by tool_search: its schema was never sent. */
  isUnloaded?(name: string): boolean;
  /** Deferred at all (activated or not): `tool_call.source` is `deferred`. */
  isDeferred?(name: string): boolean;
}

export function lookupTool(registry: ToolLookup, name: string): StageResult<Tool> {
  const tool = registry.get(name);
  if (tool) return { ok: true, value: tool };
  const available = registry.names();
  return {
    ok: false,
    failure: {
      kind: 'not_found',
      errorCode: 'unknown_tool',
      message:
        `Tool "${name.slice(0, 64)}" does not exist. Available tools: ${available.join(', ') || '(none)'}. ` +
        'Call one of these instead.',
    },
  };
}
