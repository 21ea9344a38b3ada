// Regenerates schema/events.v1.json and docs/event-contract.md from the zod schemas (npm run gen:schema).
import { mkdirSync, writeFileSync } from 'node:fs';
import { eventContractMarkdown } from '../src/events/contract-markdown.js';
import { eventsJsonSchemaText } from '../src/events/json-schema.js';
import { eventFieldNotes } from './event-field-notes.js';

mkdirSync('schema', { recursive: true });
writeFileSync('schema/events.v1.json', eventsJsonSchemaText());
console.log('wrote schema/events.v1.json');
mkdirSync('docs', { recursive: true });
writeFileSync('docs/event-contract.md', eventContractMarkdown(eventFieldNotes()));
console.log('wrote docs/event-contract.md');
