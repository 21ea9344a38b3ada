/**
 * The Gemini dialect: a FunctionDeclaration's `parameters` is the API's
 * `Schema` message, a select subset of OpenAPI 3.0, parsed as a protobuf
 * message. So, unlike the other wires:
 * - a key the message does not have is REJECTED with a 400 ("Unknown name
 *   ... Cannot find field"), whatever JSON Schema says: `additionalProperties`,
 *   `$ref`/`$defs`, `const`, `oneOf`/`allOf`/`not`, `exclusiveMinimum`,
 *   `multipleOf`, `uniqueItems`, `examples`, `patternProperties`, ... and the
 *   undocumented `$schema`/`$id`/`$comment`. They are rewritten where the
 *   subset can say the same (`const` -> one-value `enum`, `oneOf` -> `anyOf`,
 *   a local `$ref` inlined), else dropped;
 * - `type` is ONE value (the API's enum, sent upper-case as the genai SDK
 *   does): a JSON Schema type list `["string","null"]` becomes the type plus
 *   `nullable: true`, and an `anyOf` with a `{type: "null"}` branch the same;
 * - `enum` holds strings only (values of other types are sent as strings);
 * - accepted but SILENTLY IGNORED by the model: `default`, `example`,
 *   `title` (kept: they cost bytes, not correctness).
 * There is no strict mode on this wire: `strict` changes nothing.
 */
import type { JsonSchema } from '../types.js';
import { isSchemaObject } from './walk.js';

/** The fields of the API's Schema message (JSON names), ai.google.dev/api/caching#Schema. */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);

/** Accepted by the API, read by no one: documentation only. */
export const GEMINI_IGNORED_KEYS: ReadonlySet<string> = new Set(['default', 'example', 'title']);

const MAX_REF_DEPTH = 8;

type Defs = Record<string, unknown>;

function resolveRef(ref: unknown, defs: Defs): unknown {
  if (typeof ref !== 'string') return undefined;
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  return m ? defs[m[2] as string] : undefined;
}

function convert(node: unknown, defs: Defs, depth: number): JsonSchema {
  if (!isSchemaObject(node)) return {};
  let source: JsonSchema = node;
  const referenced = '$ref' in source ? resolveRef(source['$ref'], defs) : undefined;
  if (isSchemaObject(referenced) && depth < MAX_REF_DEPTH) {
    const { $ref: _ref, ...rest } = source;
    source = { ...(convert(referenced, defs, depth + 1) as JsonSchema), ...rest };
  }
  const out: JsonSchema = {};
  let nullable = source['nullable'] === true;
  const type = source['type'];
  if (Array.isArray(type)) {
    const types = type.filter((t): t is string => typeof t === 'string');
    nullable ||= types.includes('null');
    const real = types.filter((t) => t !== 'null');
    if (real.length === 1) out['type'] = (real[0] as string).toUpperCase();
    else if (real.length > 1) out['anyOf'] = real.map((t) => ({ type: t.toUpperCase() }));
  } else if (typeof type === 'string' && type !== 'null') out['type'] = type.toUpperCase();
  else if (type === 'null') nullable = true;
  const branches = Array.isArray(source['anyOf']) ? source['anyOf'] : Array.isArray(source['oneOf']) ? source['oneOf'] : null;
  if (branches) {
    const kept = branches.filter((b) => !(isSchemaObject(b) && b['type'] === 'null'));
    nullable ||= kept.length < branches.length;
    const converted = kept.map((b) => convert(b, defs, depth));
    if (converted.length === 1) Object.assign(out, converted[0], out);
    else if (converted.length > 1 && out['type'] === undefined) out['anyOf'] = converted;
  }
  if ('const' in source) out['enum'] = [String(source['const'])];
  for (const [key, value] of Object.entries(source)) {
    if (key === 'type' || key === 'anyOf' || key === 'nullable' || !GEMINI_SCHEMA_KEYS.has(key)) continue;
    if (key === 'properties' && isSchemaObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, defs, depth)]));
    else if (key === 'items') out[key] = convert(Array.isArray(value) ? value[0] : value, defs, depth);
    else if (key === 'enum' && Array.isArray(value)) out[key] = value.filter((v) => v !== null).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    else out[key] = value;
  }
  if (Array.isArray(out['enum']) && out['type'] === undefined) out['type'] = 'STRING';
  if (Array.isArray(out['enum']) && out['type'] !== 'STRING') out['type'] = 'STRING';
  if (nullable) out['nullable'] = true;
  return out;
}

export function geminiToolSchema(schema: JsonSchema): JsonSchema {
  const defs: Defs = { ...(isSchemaObject(schema['definitions']) ? schema['definitions'] : {}), ...(isSchemaObject(schema['$defs']) ? schema['$defs'] : {}) };
  return convert(schema, defs, 0);
}
