/**
 * Schema dialects (docs/harness-rules.md#schema-dialects): the one place where a neutral tool schema
 * becomes what a wire family accepts. The adapters' request builders call
 * `toolSchemaFor` for every tool on every request; nothing else shapes the
 * schemas sent to a provider.
 *
 * `strict` (default false) selects each family's strict subset AND sets the
 * wire's `strict: true` flag: shape and switch travel together so a request
 * never claims strict with a non-strict shape. Off by default because
 * OpenAI-compatible servers may not know the flag, and turning it on changes
 * decoding behaviour (docs/harness-rules.md#dialect-per-provider: switch one variable at a time).
 */
import type { JsonSchema } from '../types.js';
import { anthropicToolSchema } from './anthropic.js';
import { geminiToolSchema } from './gemini.js';
import { openaiToolSchema } from './openai.js';

export type WireFamily = 'anthropic' | 'openai' | 'gemini';

export interface DialectOptions {
  /** Strict tool use: the family's strict schema subset plus `strict: true`. Default false. */
  strict?: boolean;
}

/**
 * Dialect results of frozen schemas (the registry freezes every schema it
 * hands out), per family and strictness. The adapters call toolSchemaFor for
 * every tool on every request; the same frozen input always gives the same
 * output, so it is computed once and shared, frozen too so no request can
 * change what the next one sends. A schema that is not frozen may still
 * change, so it is never cached.
 */
const cache = new WeakMap<JsonSchema, Map<string, JsonSchema>>();

export function toolSchemaFor(family: WireFamily, schema: JsonSchema, options: DialectOptions = {}): JsonSchema {
  const strict = options.strict ?? false;
  const compute = () => (family === 'anthropic' ? anthropicToolSchema(schema, { strict }) : family === 'gemini' ? geminiToolSchema(schema) : openaiToolSchema(schema, { strict }));
  if (!Object.isFrozen(schema)) return compute();
  let byDialect = cache.get(schema);
  if (!byDialect) cache.set(schema, (byDialect = new Map()));
  const key = `${family}:${strict}`;
  let out = byDialect.get(key);
  if (!out) byDialect.set(key, (out = deepFreeze(compute())));
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export { anthropicToolSchema } from './anthropic.js';
export { openaiToolSchema, nullable } from './openai.js';
export { absentForNull } from './strict-nulls.js';
export { geminiToolSchema, GEMINI_SCHEMA_KEYS, GEMINI_IGNORED_KEYS } from './gemini.js';
export { UNDOCUMENTED_KEYS } from './common.js';
