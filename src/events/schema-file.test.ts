import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventsJsonSchemaText } from './json-schema.js';
import { eventColumns } from './columns.js';
import { EVENT_NAMES } from './schemas.js';

describe('published JSON Schema', () => {
  it('matches the zod schemas (run `npm run gen:schema` when this fails)', () => {
    const committed = readFileSync(new URL('../../schema/events.v1.json', import.meta.url), 'utf8');
    expect(committed).toBe(eventsJsonSchemaText());
  });

  it('describes every event name', () => {
    const text = eventsJsonSchemaText();
    for (const name of EVENT_NAMES) expect(text).toContain(`"const": "${name}"`);
  });
});

describe('derived column list', () => {
  it('has one typed column per field across all events', () => {
    const columns = eventColumns();
    const byName = new Map(columns.map((c) => [c.name, c]));
    expect(byName.get('seq')?.kind).toBe('integer');
    expect(byName.get('duration_ms')?.kind).toBe('number');
    expect(byName.get('failure_kind')?.kind).toBe('string');
    expect(byName.get('will_retry')?.kind).toBe('boolean');
    expect(byName.get('tools')?.kind).toBe('string[]');
    expect(byName.get('tool')?.events).toEqual(
      expect.arrayContaining(['tool_call', 'tool_success', 'tool_failure', 'permission_decision', 'hook', 'defense_trigger']),
    );
    expect(new Set(columns.map((c) => c.name)).size).toBe(columns.length);
  });
});
