/** The published JSON Schema of the contract (schema/events.v1.json), generated from the zod schemas. */
import { z } from 'zod';
import { AnyEvent } from './schemas.js';

export function eventsJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(AnyEvent, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://faultline.dev/schema/events.v1.json',
    title: 'faultline event (contract v1)',
    description: 'One JSON object per line of a faultline trace. Generated from src/events/schemas.ts; do not edit.',
  };
}

export function eventsJsonSchemaText(): string {
  return JSON.stringify(eventsJsonSchema(), null, 2) + '\n';
}
