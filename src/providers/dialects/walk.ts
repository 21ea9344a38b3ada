/**
 * Post-order rewrite of every subschema in a JSON Schema tree (docs/harness-rules.md#dialect-per-provider: the
 * difference is a tree, not a flag — `required` and `additionalProperties`
 * can sit at any depth). Only keywords that hold schemas are descended into;
 * literal payloads (`enum`, `const`, `default`, `examples`) are data and are
 * never rewritten, even when they look like schemas.
 */
import type { JsonSchema } from '../types.js';

/** Keywords whose value is one schema. */
const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];
/** Keywords whose value is a list of schemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Returns a new tree: each object node is copied, its children rewritten
 * first, then `visit` gets the copy (which it may change in place). Boolean
 * schemas (`true`/`false`) pass through untouched. The input is never mutated
 * (registry schemas are frozen and shared between requests).
 */
export function rewriteSchema(node: unknown, visit: (schema: JsonSchema) => void): unknown {
  if (!isSchemaObject(node)) return node;
  const copy: JsonSchema = { ...node };
  for (const key of SINGLE) {
    // Draft 2019 tuple form: `items` may be a list.
    if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map((child) => rewriteSchema(child, visit));
    else if (key in copy) copy[key] = rewriteSchema(copy[key], visit);
  }
  for (const key of LIST) {
    if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map((child) => rewriteSchema(child, visit));
  }
  for (const key of MAP) {
    const children = copy[key];
    if (!isSchemaObject(children)) continue;
    copy[key] = Object.fromEntries(Object.entries(children).map(([name, child]) => [name, rewriteSchema(child, visit)]));
  }
  visit(copy);
  return copy;
}

/** True when the node describes (or may describe) a JSON object. */
export function isObjectNode(schema: JsonSchema): boolean {
  const type = schema['type'];
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || isSchemaObject(schema['properties']);
}
