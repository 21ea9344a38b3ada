/** The nested input shared by the dialect golden tests: an object inside an array inside a union, with optional fields at each level. */
import { z } from 'zod';
import type { JsonSchema } from '../../src/providers/types.js';

export const NestedInput = z.strictObject({
  file_path: z.string().min(1).describe('File to patch.'),
  patch: z.union([
    z.string().describe('A unified diff.'),
    z.strictObject({
      edits: z
        .array(
          z.strictObject({
            line: z.number().positive().describe('1-based line.'),
            text: z.string().max(200).optional(),
          }),
        )
        .min(2)
        .max(10),
      note: z.string().optional(),
    }),
  ]),
  dry_run: z.boolean().optional().describe('Only show the result.'),
});

/** Exactly what zod hands the registry, `$schema` included (the registry strips it only at the top). */
export function nestedJsonSchema(): JsonSchema {
  return z.toJSONSchema(NestedInput, { io: 'input' }) as JsonSchema;
}
