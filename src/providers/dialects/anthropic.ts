/**
 * The Anthropic (Messages `input_schema`) dialect, docs/harness-rules.md#strict-schemas.
 *
 * Always: drop the keys no provider documents (common.ts), at every depth.
 *
 * Strict (`strict: true` on the tool): the supported JSON Schema subset is
 * documented at https://platform.claude.com/docs/en/build-with-claude/structured-outputs
 * ("JSON Schema limitations", linked from the strict tool use page): numeric
 * constraints (minimum, maximum, exclusive bounds, multipleOf), string length
 * (minLength, maxLength), array bounds other than minItems 0/1, and only a
 * list of string formats are not supported; `required` keeps optional
 * parameters (the opposite of OpenAI) and `default` is supported.
 * `additionalProperties` may only be `false`; like the official SDK's own
 * transform (@anthropic-ai/sdk 1.16.0 lib/transform-json-schema.mjs) every
 * object gets `false` (our zod schemas already carry it).
 *
 * Stripping is not losing semantics (docs/harness-rules.md#strict-schemas): each removed constraint is
 * written into the same node's description, as the official SDK does, and
 * the tool's zod validation still enforces it at run time.
 *
 * Evidence level (docs/harness-rules.md#strict-schemas): this is the documented subset, not trace evidence.
 * No trace here shows Anthropic rejecting these keywords; treat the strict
 * shape as conservative conformance to the docs, not as a fix for a live 400.
 */
import type { JsonSchema } from '../types.js';
import { stripUndocumented } from './common.js';
import { isObjectNode, rewriteSchema } from './walk.js';

/** Formats the docs list as supported for strict schemas. */
const SUPPORTED_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

const count = (v: unknown, noun: string): string => `${String(v)} ${noun}${v === 1 ? '' : 's'}`;

/** Unsupported constraint -> the sentence that carries its meaning in the description. */
const PHRASES: Record<string, (v: unknown) => string> = {
  minimum: (v) => `Must be at least ${String(v)}.`,
  exclusiveMinimum: (v) => `Must be greater than ${String(v)}.`,
  maximum: (v) => `Must be at most ${String(v)}.`,
  exclusiveMaximum: (v) => `Must be less than ${String(v)}.`,
  multipleOf: (v) => `Must be a multiple of ${String(v)}.`,
  minLength: (v) => `At least ${count(v, 'character')}.`,
  maxLength: (v) => `At most ${count(v, 'character')}.`,
  minItems: (v) => `At least ${count(v, 'item')}.`,
  maxItems: (v) => `At most ${count(v, 'item')}.`,
  minProperties: (v) => `At least ${String(v)} ${v === 1 ? 'property' : 'properties'}.`,
  maxProperties: (v) => `At most ${String(v)} ${v === 1 ? 'property' : 'properties'}.`,
  format: (v) => `Format: ${String(v)}.`,
};

function isSupported(key: string, value: unknown): boolean {
  if (key === 'minItems') return value === 0 || value === 1;
  if (key === 'format') return typeof value === 'string' && SUPPORTED_FORMATS.has(value);
  return false;
}

function moveConstraintsToDescription(schema: JsonSchema): void {
  const sentences: string[] = [];
  for (const [key, phrase] of Object.entries(PHRASES)) {
    if (!(key in schema) || isSupported(key, schema[key])) continue;
    sentences.push(phrase(schema[key]));
    delete schema[key];
  }
  if (sentences.length === 0) return;
  const existing = typeof schema['description'] === 'string' ? schema['description'] : '';
  schema['description'] = [existing, ...sentences].filter((s) => s !== '').join(' ');
}

export function anthropicToolSchema(schema: JsonSchema, options: { strict: boolean }): JsonSchema {
  return rewriteSchema(schema, (node) => {
    stripUndocumented(node);
    if (!options.strict) return;
    moveConstraintsToDescription(node);
    if (isObjectNode(node)) node['additionalProperties'] = false;
  }) as JsonSchema;
}
