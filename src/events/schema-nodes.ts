/** The zod event schemas seen as JSON Schema nodes, which the fast line check is compiled from. */
import { z } from 'zod';
import { EVENT_SCHEMAS, type EventName } from './schemas.js';

export interface SchemaNode {
  type?: string | string[];
  anyOf?: SchemaNode[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
}

const cache = new Map<EventName, SchemaNode>();

/**
 * zod writes a nullable primitive as `type: ["boolean", "null"]` but other
 * nullables as `anyOf`; readers here (the column list, the fast line check)
 * see one shape: a type list becomes an `anyOf` of single types.
 */
function normalize(node: SchemaNode): SchemaNode {
  if (Array.isArray(node.type)) {
    const { type, ...rest } = node;
    return { anyOf: type.map((t) => normalize(t === 'null' ? { type: 'null' } : { ...rest, type: t })) };
  }
  const out: SchemaNode = { ...node };
  if (node.anyOf) out.anyOf = node.anyOf.map(normalize);
  if (node.items) out.items = normalize(node.items);
  if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, normalize(v)]));
  return out;
}

export function eventJsonSchema(event: EventName): SchemaNode {
  let node = cache.get(event);
  if (!node) cache.set(event, (node = normalize(z.toJSONSchema(EVENT_SCHEMAS[event], { io: 'input' }) as SchemaNode)));
  return node;
}
