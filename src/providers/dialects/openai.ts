/**
 * The OpenAI (Chat Completions function `parameters`) dialect, docs/harness-rules.md#strict-schemas.
 *
 * Always: drop the keys no provider documents (common.ts), at every depth.
 *
 * Strict (`function.strict: true`): OpenAI's documented rules are the
 * opposite of Anthropic's on optional parameters:
 * - every key of `properties` must be listed in `required`, on every object;
 *   an optional parameter stays expressible as a `null` union (`null` means
 *   "not provided"; the tool pipeline reads such a `null` as the field being
 *   absent before any stage judges the input: strict-nulls.ts, used by
 *   harness/pipeline/run-call.ts);
 * - `additionalProperties: false` on every object.
 * Numeric and length bounds (`minimum`, `minLength`, ...) are accepted by
 * OpenAI strict and kept (they are not in the SDK's unsupported list:
 * openai 6.49.0 lib/transform.mjs JSON_SCHEMA_UNSUPPORTED_SCHEMA_KEYWORDS).
 *
 * Deliberately not done (docs/harness-rules.md#dialect-per-provider):
 * - `oneOf` is rejected by OpenAI strict, but zod emits unions as `anyOf` and
 *   no tool schema here produces `oneOf`; a rewrite would be dead code. It is
 *   left as is, so a future input fails loudly with OpenAI's own 400.
 * - `default` is not in OpenAI's supported list, but nothing shows it is
 *   rejected: it is kept (no evidence, no change; recorded as unverified).
 */
import type { JsonSchema } from '../types.js';
import { stripUndocumented } from './common.js';
import { isObjectNode, isSchemaObject, rewriteSchema } from './walk.js';

/** `schema` widened to also accept `null`, in the form OpenAI strict accepts. */
export function nullable(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  const type = schema['type'];
  // An enum/const restricts values: `null` must join the value list as well as the type, so use a union there.
  const literal = 'enum' in schema || 'const' in schema;
  if (typeof type === 'string' && !literal) return type === 'null' ? schema : { ...schema, type: [type, 'null'] };
  if (Array.isArray(type) && !literal) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  if (Array.isArray(schema['anyOf'])) {
    const branches = schema['anyOf'] as unknown[];
    const hasNull = branches.some((b) => isSchemaObject(b) && b['type'] === 'null');
    return hasNull ? schema : { ...schema, anyOf: [...branches, { type: 'null' }] };
  }
  // $ref, enum, const, untyped: wrap, keeping the description where the model reads it.
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: 'null' }], ...(description !== undefined ? { description } : {}) };
}

function strictObject(schema: JsonSchema): void {
  if (!isObjectNode(schema)) return;
  const properties = isSchemaObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : []);
  const names = Object.keys(properties);
  schema['properties'] = Object.fromEntries(names.map((name) => [name, required.has(name) ? properties[name] : nullable(properties[name])]));
  schema['required'] = names;
  schema['additionalProperties'] = false;
}

export function openaiToolSchema(schema: JsonSchema, options: { strict: boolean }): JsonSchema {
  return rewriteSchema(schema, (node) => {
    stripUndocumented(node);
    if (options.strict) strictObject(node);
  }) as JsonSchema;
}
