/**
 * Schema dialects (seed §11): the one place where a neutral tool schema
 * becomes what a wire family accepts. The adapters' request builders call
 * `toolSchemaFor` for every tool on every request; nothing else shapes the
 * schemas sent to a provider.
 *
 * `strict` (default false) selects each family's strict subset AND sets the
 * wire's `strict: true` flag: shape and switch travel together so a request
 * never claims strict with a non-strict shape. Off by default because
 * OpenAI-compatible servers may not know the flag, and turning it on changes
 * decoding behaviour (seed §11.6: switch one variable at a time).
 */
import type { JsonSchema } from '../types.js';
import { anthropicToolSchema } from './anthropic.js';
import { openaiToolSchema } from './openai.js';

export type WireFamily = 'anthropic' | 'openai';

export interface DialectOptions {
  /** Strict tool use: the family's strict schema subset plus `strict: true`. Default false. */
  strict?: boolean;
}

export function toolSchemaFor(family: WireFamily, schema: JsonSchema, options: DialectOptions = {}): JsonSchema {
  const strict = options.strict ?? false;
  return family === 'anthropic' ? anthropicToolSchema(schema, { strict }) : openaiToolSchema(schema, { strict });
}

export { anthropicToolSchema } from './anthropic.js';
export { openaiToolSchema, nullable } from './openai.js';
export { UNDOCUMENTED_KEYS } from './common.js';
