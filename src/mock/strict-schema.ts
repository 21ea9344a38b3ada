/**
 * Whether a schema sent with `strict: true` is one the wire's strict mode
 * accepts (docs/harness-rules.md#strict-schemas): every object node `additionalProperties: false`; on the
 * OpenAI wires also every property listed in `required` (optional ones are
 * `null` unions). Worded as OpenAI words its 400. Used by the OpenAI request
 * checks (the real API rejects such a request) and by the lab's check.
 */
import { isObjectNode, isSchemaObject, rewriteSchema } from '../providers/dialects/walk.js';
import type { JsonSchema } from '../providers/types.js';

export function strictProblem(schema: JsonSchema, wire: string): string | null {
  let problem: string | null = null;
  rewriteSchema(schema, (node) => {
    if (problem !== null || !isObjectNode(node)) return;
    if (node['additionalProperties'] !== false) problem = "'additionalProperties' is required to be supplied and to be false";
    else if (wire !== 'anthropic') {
      const properties = isSchemaObject(node['properties']) ? Object.keys(node['properties']) : [];
      const required = Array.isArray(node['required']) ? node['required'] : [];
      const missing = properties.filter((p) => !required.includes(p));
      if (missing.length > 0) problem = `'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'`;
    }
  });
  return problem;
}

/** The OpenAI 400 for a strict function whose schema is not strict-valid. */
export function strictSchemaRejection(name: string, schema: unknown, param: string): { message: string; param: string; code: string } | null {
  const problem = strictProblem(isSchemaObject(schema) ? schema : {}, 'openai');
  return problem === null ? null : { message: `Invalid schema for function '${name}': In context=(), ${problem}.`, param, code: 'invalid_function_parameters' };
}
