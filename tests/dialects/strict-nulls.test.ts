/**
 * The strict dialect's `null` unions read back: a strict model fills every
 * optional field with `null`; the zod schema the input is validated with
 * must then accept it, at every depth the dialect rewrote.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { absentForNull } from '../../src/providers/dialects/strict-nulls.js';
import type { JsonSchema } from '../../src/providers/types.js';
import { NestedInput, nestedJsonSchema } from './nested-schema.js';

describe('absentForNull', () => {
  it('makes a strict-mode input with nulls at every depth valid for the neutral schema', () => {
    const strictInput = { file_path: 'a.ts', patch: { edits: [{ line: 1, text: null }, { line: 2, text: 'x' }], note: null }, dry_run: null };
    expect(NestedInput.safeParse(strictInput).success).toBe(false);
    const read = absentForNull(nestedJsonSchema(), strictInput);
    expect(read).toEqual({ file_path: 'a.ts', patch: { edits: [{ line: 1 }, { line: 2, text: 'x' }] } });
    expect(NestedInput.safeParse(read).success).toBe(true);
  });

  it('keeps a null in a required field and in a field that accepts null', () => {
    const Schema = z.strictObject({ a: z.string(), b: z.string().nullable().optional(), c: z.number().optional() });
    const schema = z.toJSONSchema(Schema, { io: 'input' }) as JsonSchema;
    expect(absentForNull(schema, { a: null, b: null, c: null })).toEqual({ a: null, b: null });
  });

  it('follows local $refs and returns the same object when nothing changes', () => {
    const schema: JsonSchema = {
      type: 'object',
      $defs: { Opt: { type: 'object', properties: { n: { type: 'integer' } } } },
      properties: { o: { $ref: '#/$defs/Opt' } },
    };
    expect(absentForNull(schema, { o: { n: null } })).toEqual({ o: {} });
    const untouched = { o: { n: 1 } };
    expect(absentForNull(schema, untouched)).toBe(untouched);
  });
});
