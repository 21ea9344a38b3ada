/**
 * Golden tests for the two schema dialects on a nested schema: an object
 * inside an array inside a union (docs/harness-rules.md#strict-schemas: the rules apply at every depth,
 * or the 400 shows up weeks later on the one tool with a nested parameter).
 */
import { describe, expect, it } from 'vitest';
import { toolSchemaFor } from '../../src/providers/dialects/index.js';
import { nestedJsonSchema } from './nested-schema.js';

const edit = (text: unknown, line: unknown) => ({
  type: 'object',
  properties: { line, text },
  required: ['line'],
  additionalProperties: false,
});

describe('OpenAI dialect', () => {
  it('without strict only drops $schema and keeps every constraint and optional field', () => {
    expect(toolSchemaFor('openai', nestedJsonSchema())).toEqual({
      type: 'object',
      properties: {
        file_path: { type: 'string', minLength: 1, description: 'File to patch.' },
        patch: {
          anyOf: [
            { type: 'string', description: 'A unified diff.' },
            {
              type: 'object',
              properties: {
                edits: { minItems: 2, maxItems: 10, type: 'array', items: edit({ type: 'string', maxLength: 200 }, { type: 'number', exclusiveMinimum: 0, description: '1-based line.' }) },
                note: { type: 'string' },
              },
              required: ['edits'],
              additionalProperties: false,
            },
          ],
        },
        dry_run: { description: 'Only show the result.', type: 'boolean' },
      },
      required: ['file_path', 'patch'],
      additionalProperties: false,
    });
  });

  it('with strict requires every property at every depth and turns optional ones into null unions', () => {
    expect(toolSchemaFor('openai', nestedJsonSchema(), { strict: true })).toEqual({
      type: 'object',
      properties: {
        file_path: { type: 'string', minLength: 1, description: 'File to patch.' },
        patch: {
          anyOf: [
            { type: 'string', description: 'A unified diff.' },
            {
              type: 'object',
              properties: {
                edits: {
                  minItems: 2,
                  maxItems: 10,
                  type: 'array',
                  items: {
                    ...edit({ type: ['string', 'null'], maxLength: 200 }, { type: 'number', exclusiveMinimum: 0, description: '1-based line.' }),
                    required: ['line', 'text'],
                  },
                },
                note: { type: ['string', 'null'] },
              },
              required: ['edits', 'note'],
              additionalProperties: false,
            },
          ],
        },
        dry_run: { description: 'Only show the result.', type: ['boolean', 'null'] },
      },
      required: ['file_path', 'patch', 'dry_run'],
      additionalProperties: false,
    });
  });

  it('with strict adds additionalProperties false to a nested object that lacked it, and wraps an optional enum in a null union', () => {
    const out = toolSchemaFor(
      'openai',
      {
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'] } } } },
        },
      },
      { strict: true },
    );
    expect(out).toEqual({
      type: 'object',
      properties: {
        items: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { mode: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] } },
            required: ['mode'],
            additionalProperties: false,
          },
        },
      },
      required: ['items'],
      additionalProperties: false,
    });
  });
});

describe('Anthropic dialect', () => {
  it('without strict only drops $schema and keeps every constraint', () => {
    const out = toolSchemaFor('anthropic', nestedJsonSchema());
    expect(out).toEqual(toolSchemaFor('openai', nestedJsonSchema()));
    expect(out).not.toHaveProperty('$schema');
  });

  it('with strict keeps optional fields optional and moves unsupported constraints into the description at every depth', () => {
    expect(toolSchemaFor('anthropic', nestedJsonSchema(), { strict: true })).toEqual({
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'File to patch. At least 1 character.' },
        patch: {
          anyOf: [
            { type: 'string', description: 'A unified diff.' },
            {
              type: 'object',
              properties: {
                edits: {
                  type: 'array',
                  description: 'At least 2 items. At most 10 items.',
                  items: edit({ type: 'string', description: 'At most 200 characters.' }, { type: 'number', description: '1-based line. Must be greater than 0.' }),
                },
                note: { type: 'string' },
              },
              required: ['edits'],
              additionalProperties: false,
            },
          ],
        },
        dry_run: { description: 'Only show the result.', type: 'boolean' },
      },
      required: ['file_path', 'patch'],
      additionalProperties: false,
    });
  });

  it('with strict keeps what strict supports: minItems 0 or 1, listed formats, default', () => {
    const out = toolSchemaFor(
      'anthropic',
      { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, default: [] }, when: { type: 'string', format: 'cron' } } },
      { strict: true },
    );
    expect(out).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, default: [] },
        when: { type: 'string', description: 'Format: cron.' },
      },
      additionalProperties: false,
    });
  });
});

describe('both dialects', () => {
  it('remove $schema, $id and $comment at every depth but never inside literal data', () => {
    const input = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { Point: { $schema: 'x', $id: 'p', $comment: 'c', type: 'object', properties: { x: { type: 'number' } } } },
      properties: {
        p: { $ref: '#/$defs/Point' },
        cfg: { type: 'object', default: { $schema: 'kept: this is a value, not a keyword' } },
      },
    };
    for (const family of ['anthropic', 'openai'] as const) {
      for (const strict of [false, true]) {
        const text = JSON.stringify(toolSchemaFor(family, input, { strict }));
        expect(text.match(/"\$schema"/g)).toHaveLength(1);
        expect(text).toContain('kept: this is a value');
        expect(text).not.toContain('"$id"');
        expect(text).not.toContain('"$comment"');
      }
    }
  });

  it('never mutate the input schema (registry schemas are frozen and shared)', () => {
    const input = Object.freeze(nestedJsonSchema());
    const before = JSON.stringify(input);
    for (const family of ['anthropic', 'openai'] as const) toolSchemaFor(family, input, { strict: true });
    expect(JSON.stringify(input)).toBe(before);
  });
});
