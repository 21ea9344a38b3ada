/**
 * The definition the model is sent for a tool, one per tool object for the whole process: every session builds its
 * own registry of the same built-in tools, and each then built the same definitions again, and serialized them
 * again for the prefix hash (~20 us a session). A definition is made from the tool's description, usage and
 * schema; it is made again when one of them is not the one it was made from, and it is deep-frozen (its schema
 * already is, tool-schema.ts), so no session can change what another sends.
 */
import type { ToolDefinition } from '../../providers/types.js';
import type { Tool } from './tool.js';
import { toolJsonSchema } from './tool-schema.js';

interface Made {
  description: string;
  usage: string | undefined;
  jsonSchema: Tool['jsonSchema'];
  definition: ToolDefinition;
}

const made = new WeakMap<Tool, Made>();
const shared = new WeakSet<ToolDefinition>();

export function toolDefinition(tool: Tool): ToolDefinition {
  const known = made.get(tool);
  if (known && known.description === tool.description && known.usage === tool.usage && known.jsonSchema === tool.jsonSchema && known.definition.name === tool.name) return known.definition;
  const description = tool.usage ? `${tool.description}\n\n${tool.usage}` : tool.description;
  // A schema from outside (MCP) is never sent strict: the strict subsets are only known to fit ours (docs/harness-rules.md#dialect-per-provider).
  const definition: ToolDefinition = Object.freeze(
    tool.jsonSchema
      ? { name: tool.name, description, input_schema: toolJsonSchema(tool), strict: false }
      : { name: tool.name, description, input_schema: toolJsonSchema(tool) },
  );
  made.set(tool, { description: tool.description, usage: tool.usage, jsonSchema: tool.jsonSchema, definition });
  shared.add(definition);
  return definition;
}

/** True for a definition made here: deep-frozen, so what it serializes to can never change. */
export function isSharedDefinition(definition: ToolDefinition): boolean {
  return shared.has(definition);
}
