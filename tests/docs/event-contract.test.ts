import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventColumns } from '../../src/events/columns.js';
import { eventContractMarkdown } from '../../src/events/contract-markdown.js';
import { EVENT_NAMES } from '../../src/events/schemas.js';
import { eventFieldNotes } from '../../scripts/event-field-notes.js';

const committed = () => readFileSync(new URL('../../docs/event-contract.md', import.meta.url), 'utf8');

describe('docs/event-contract.md', () => {
  it('is what the zod schemas generate (run `npm run gen:schema` when this fails)', () => {
    expect(committed()).toBe(eventContractMarkdown(eventFieldNotes()));
  });

  it('has a section for every event and a row for every column of the contract', () => {
    const page = eventContractMarkdown(eventFieldNotes());
    for (const event of EVENT_NAMES) expect(page).toContain(`\n## ${event}\n`);
    for (const column of eventColumns()) expect(page).toContain(`| \`${column.name}\` |`);
  });

  it('states closed value sets and nullability from the schema, not from prose', () => {
    const page = eventContractMarkdown({});
    const failure = page.slice(page.indexOf('\n## tool_failure\n'), page.indexOf('\n## permission_decision\n'));
    expect(failure).toMatch(/\| `failure_kind` \| one of [^|]*`exception`[^|]*`tool_error`[^|]* \| required \|/);
    expect(failure).toMatch(/\| `duration_ms` \| number ≥ 0 \| required, may be `null` \|/);
    expect(failure).toMatch(/\| `duration_source` \| one of [^|]* \| optional \|/);
  });

  it('carries the doc comment written beside a field in the schema source', () => {
    const notes = eventFieldNotes('export const EVENT_SCHEMAS = { tool_call: z.strictObject({ /** Why it exists. */ batch: nonNeg() }) };');
    expect(notes).toEqual({ 'tool_call.batch': 'Why it exists.' });
    expect(eventFieldNotes()['tool_call.requested_tool']).toMatch(/hallucinated/);
  });
});
