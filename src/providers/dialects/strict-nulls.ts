/**
 * The inverse of the OpenAI strict dialect's `null` unions (openai.ts).
 *
 * Strict mode lists every property in `required` and widens each optional one
 * to accept `null`, so a strict model sends `"offset": null` where it means
 * "not provided". The tool's own schema (the neutral one its validation uses)
 * does not accept that `null`; refusing it would tell the model to "send
 * offset as an integer" — the opposite of the schema it was given — and every
 * live strict trace would record false `invalid_input` failures. So before
 * anything judges the input (hooks, permissions, validation), a `null` in a
 * field that the neutral schema leaves optional and that does not itself
 * accept `null` is read as the field being absent. A `null` in a required
 * field, or in a field whose schema does accept `null`, is kept: that is the
 * model's real answer and validation judges it.
 *
 * Applied on every wire: a `null` for an optional field means "not provided"
 * whichever schema the model was shown, and only this reading never
 * contradicts either of them.
 */
import type { JsonSchema } from '../types.js';
import { isSchemaObject } from './walk.js';

/** `value` with strict-mode `null`s of optional fields removed, at every depth; the same object when none. */
export function absentForNull(schema: JsonSchema, value: unknown): unknown {
  return mapNode(schema, schema, value, 0);
}

// Deep enough for any tool input; a cycle of $refs cannot loop forever.
const MAX_DEPTH = 32;

function mapNode(root: JsonSchema, schema: unknown, value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return value;
  const node = resolve(root, schema);
  if (!node) return value;
  if (Array.isArray(value)) {
    const items = node['items'];
    if (!isSchemaObject(items)) return value;
    let changed = false;
    const out = value.map((item) => {
      const mapped = mapNode(root, items, item, depth + 1);
      if (mapped !== item) changed = true;
      return mapped;
    });
    return changed ? out : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const objectSchema = objectBranch(root, node);
  if (!objectSchema) return value;
  const properties = objectSchema['properties'] as Record<string, unknown>;
  const required = new Set(Array.isArray(objectSchema['required']) ? (objectSchema['required'] as unknown[]) : []);
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema = properties[key];
    if (child === null && childSchema !== undefined && !required.has(key) && !acceptsNull(root, childSchema, depth + 1)) {
      changed = true;
      continue;
    }
    const mapped = childSchema === undefined ? child : mapNode(root, childSchema, child, depth + 1);
    if (mapped !== child) changed = true;
    out[key] = mapped;
  }
  return changed ? out : value;
}

/** The node itself when it has `properties`, or its single object-shaped `anyOf`/`oneOf` branch. */
function objectBranch(root: JsonSchema, node: JsonSchema): JsonSchema | null {
  if (isSchemaObject(node['properties'])) return node;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    const objects = branches.map((b) => resolve(root, b)).filter((b): b is JsonSchema => b !== null && isSchemaObject(b['properties']));
    // Several object branches: which one the model meant is not knowable here, so nothing is dropped.
    if (objects.length === 1) return objects[0]!;
  }
  return null;
}

function acceptsNull(root: JsonSchema, schema: unknown, depth: number): boolean {
  if (schema === true) return true;
  if (depth > MAX_DEPTH) return true; // unknown: keep the value, validation judges it
  const node = resolve(root, schema);
  if (!node) return false;
  const type = node['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(node['enum']) && node['enum'].includes(null)) return true;
  if ('const' in node && node['const'] === null) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (Array.isArray(branches) && branches.some((b) => acceptsNull(root, b, depth + 1))) return true;
  }
  // No type keyword and no union: an unconstrained schema ({}) accepts null too.
  return type === undefined && !('enum' in node) && !('const' in node) && !('anyOf' in node) && !('oneOf' in node) && !('$ref' in node) && !('properties' in node) && !('items' in node);
}

/** Follows a local `$ref` (`#/$defs/X`, `#/definitions/X`); null when the schema is not an object. */
function resolve(root: JsonSchema, schema: unknown): JsonSchema | null {
  let node = schema;
  for (let hops = 0; hops < 8 && isSchemaObject(node) && typeof node['$ref'] === 'string'; hops++) {
    const ref = node['$ref'] as string;
    if (ref === '#') node = root;
    else {
      const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
      const defs = match ? root[match[1]!] : undefined;
      node = match && isSchemaObject(defs) ? defs[match[2]!] : undefined;
    }
  }
  return isSchemaObject(node) ? node : null;
}
