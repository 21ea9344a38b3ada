/**
 * The Gemini dialect: what leaves the process for a FunctionDeclaration's
 * `parameters` is a schema the Gemini API's Schema message takes (the mock's
 * check answers as the API would: unknown key -> 400), carrying the same
 * constraints where the subset can say them, and the fields the API accepts
 * but ignores kept.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { geminiSchemaProblem } from '../../src/mock/gemini-schema-subset.js';
import { geminiToolSchema } from '../../src/providers/dialects/gemini.js';
import { toolsPayload } from '../../src/providers/dialects/payload.js';
import type { JsonSchema } from '../../src/providers/types.js';
import { nestedJsonSchema } from './nested-schema.js';

const RICH: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  title: 'Args',
  additionalProperties: false,
  properties: {
    path: { type: ['string', 'null'], description: 'Where.', default: '.' },
    mode: { const: 'fast' },
    level: { anyOf: [{ type: 'integer', exclusiveMinimum: 0 }, { type: 'null' }] },
    kind: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    target: { $ref: '#/$defs/Target' },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 3 },
    size: { enum: [1, 2, 3] },
  },
  required: ['mode'],
  $defs: { Target: { type: 'object', properties: { host: { type: 'string' } }, required: ['host'], additionalProperties: false } },
};

describe('the Gemini dialect', () => {
  it('turns JSON Schema the API refuses into its Schema subset, with the same constraints where the subset has them', () => {
    expect(geminiSchemaProblem(RICH, 'parameters')?.message).toBe(`Invalid JSON payload received. Unknown name "$schema" at 'parameters': Cannot find field.`);
    const out = geminiToolSchema(RICH);
    expect(geminiSchemaProblem(out, 'parameters')).toBeNull();
    expect(out).toEqual({
      type: 'OBJECT',
      title: 'Args',
      properties: {
        path: { type: 'STRING', description: 'Where.', default: '.', nullable: true },
        mode: { type: 'STRING', enum: ['fast'] },
        level: { type: 'INTEGER', nullable: true },
        kind: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
        target: { type: 'OBJECT', properties: { host: { type: 'STRING' } }, required: ['host'] },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: 3 },
        size: { type: 'STRING', enum: ['1', '2', '3'] },
      },
      required: ['mode'],
    });
  });

  it('gives a zod schema (unions, optional fields, bounds, $schema) a form the API takes', () => {
    expect(geminiSchemaProblem(nestedJsonSchema(), 'parameters')).not.toBeNull();
    expect(geminiSchemaProblem(geminiToolSchema(nestedJsonSchema()), 'parameters')).toBeNull();
    const optional = z.toJSONSchema(z.object({ n: z.number().int().min(1).optional(), s: z.string().nullable() }), { io: 'input' }) as JsonSchema;
    expect(geminiToolSchema(optional)).toMatchObject({ type: 'OBJECT', properties: { n: { type: 'INTEGER', minimum: 1 }, s: { type: 'STRING', nullable: true } }, required: ['s'] });
  });

  it('sends every built-in tool in a form the API takes (the tools payload of `faultline schema --provider gemini`)', () => {
    const definitions = [{ name: 'rich', description: 'x', input_schema: RICH }, { name: 'nested', description: 'y', input_schema: nestedJsonSchema() }];
    const payload = toolsPayload('gemini', definitions);
    expect(payload.tools).toHaveLength(2);
    for (const [i, tool] of payload.tools.entries()) expect(geminiSchemaProblem((tool as { parameters: unknown }).parameters, `tools[0].function_declarations[${i}].parameters`)).toBeNull();
  });
});
