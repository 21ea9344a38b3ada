/**
 * What neither wire documents (docs/harness-rules.md#dialect-per-provider). `$schema` is a zod artifact
 * (`z.toJSONSchema` puts the draft URI on every schema): no provider documents
 * it, none rejects it, so it silently costs bytes on every request inside the
 * cached tools prefix. `$id` and `$comment` are in the same class: schema
 * bookkeeping for humans and validators, nothing the model or the API reads
 * (the OpenAI SDK's own strict transform drops `$id`/`$schema` too:
 * openai 6.49.0 lib/transform.mjs, JSON_SCHEMA_ROOT_METADATA_KEYWORDS).
 * Removed at every depth: an external (MCP) schema can nest them in `$defs`.
 */
import type { JsonSchema } from '../types.js';

export const UNDOCUMENTED_KEYS = ['$schema', '$id', '$comment'] as const;

export function stripUndocumented(schema: JsonSchema): void {
  for (const key of UNDOCUMENTED_KEYS) delete schema[key];
}
