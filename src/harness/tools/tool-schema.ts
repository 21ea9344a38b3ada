/**
 * The JSON Schema of a tool as the model sees it, from its one zod schema
 * (docs/harness-rules.md#one-schema-per-tool) or, for an MCP tool, the schema its server sent. The registry's
 * definitions and the validation advice both read it here, so the fields a
 * model is told to fix are the fields it was shown (docs/harness-rules.md#two-path-divergence: one source).
 *
 * One JSON Schema per tool object for the whole process: every session of a
 * run builds its own registry of the same built-in tools, and converting the
 * zod schemas again for each one cost ~1.5 ms a session. Keyed by the tool
 * object, so a cached schema can never outlive or mismatch its tool, and
 * frozen, so no registry can change what another one sends.
 */
import { z } from 'zod';
import type { JsonSchema } from '../../providers/types.js';
import type { Tool } from './tool.js';

const schemaCache = new WeakMap<Tool, JsonSchema>();

export function toolJsonSchema(tool: Tool): JsonSchema {
  const cached = schemaCache.get(tool);
  if (cached) return cached;
  // An outside JSON Schema (MCP) is sent as given, copied so the tool's object is never frozen under it.
  // io 'input': the model writes the input side, where defaulted fields are optional.
  const { $schema: _dialect, ...schema } = tool.jsonSchema
    ? (structuredClone(tool.jsonSchema) as JsonSchema)
    : (z.toJSONSchema(tool.inputSchema, { io: 'input', override: dropSafeIntegerBounds }) as JsonSchema);
  const frozen = deepFreeze(schema);
  schemaCache.set(tool, frozen);
  return frozen;
}

/**
 * zod writes `.int()` as the ±2^53-1 safe-integer range. Those bounds tell the
 * model nothing and cost bytes on every request; runtime validation keeps them.
 */
function dropSafeIntegerBounds(ctx: { jsonSchema: Record<string, unknown> }): void {
  if (ctx.jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete ctx.jsonSchema.maximum;
  if (ctx.jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete ctx.jsonSchema.minimum;
}

/** Shared between calls, so no caller may change what the next request sends. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
