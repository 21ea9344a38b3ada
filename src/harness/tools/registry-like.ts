/** What the loop needs from a tool registry (the registry itself lives in registry.ts). */
import type { ToolDefinition } from '../../providers/types.js';
import type { ToolLookup } from '../pipeline/lookup.js';

export interface ToolRegistryLike extends ToolLookup {
  /** The one path that builds the tool definitions sent to the model (docs/harness-rules.md#descriptions). */
  definitions(): ToolDefinition[];
  /** The definitions deferring keeps out of the request now (absent: the registry defers nothing it can measure). */
  unloadedDefinitions?(): ToolDefinition[];
}
