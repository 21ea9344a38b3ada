// Regenerates schema/events.v1.json from the zod schemas (npm run gen:schema).
import { mkdirSync, writeFileSync } from 'node:fs';
import { eventsJsonSchemaText } from '../src/events/json-schema.js';

mkdirSync('schema', { recursive: true });
writeFileSync('schema/events.v1.json', eventsJsonSchemaText());
console.log('wrote schema/events.v1.json');
