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

export function eventJsonSchema(event: EventName): SchemaNode {
  let node = cache.get(event);
  if (!node) cache.set(event, (node = z.toJSONSchema(EVENT_SCHEMAS[event], { io: 'input' }) as SchemaNode));
  return node;
}
