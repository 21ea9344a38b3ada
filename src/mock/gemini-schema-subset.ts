/**
 * The OpenAPI 3.0 subset a Gemini FunctionDeclaration's `parameters` accepts
 * (the API's `Schema` message). The API parses the request as a protobuf
 * message: a key the message does not have is a 400 ("Unknown name ... Cannot
 * find field"), even one every JSON Schema validator knows
 * (`additionalProperties`, `$schema`, `$ref`, `const`, `oneOf`,
 * `exclusiveMinimum`, ...). Keys it has but the model never reads
 * (`default`, `example`, `title`) are accepted and ignored. `type` is one
 * enum value, never a list (`["string","null"]` is a 400: nullability is
 * `nullable: true`). `parametersJsonSchema` takes full JSON Schema instead,
 * unchecked here as by the API.
 */
import type { RequestProblem } from './decoded-request.js';
import { GEMINI_SCHEMA_KEYS } from '../providers/dialects/gemini.js';
import { isObject } from './json-shape.js';

export const GEMINI_TYPES: ReadonlySet<string> = new Set(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

const unknownName = (key: string, at: string): RequestProblem => ({ message: `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.` });

/** The first part of `schema` the API refuses, worded as the API words it; `at` is its path in the request. */
export function geminiSchemaProblem(schema: unknown, at: string): RequestProblem | null {
  if (!isObject(schema)) return { message: `Invalid value at '${at}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema), ${JSON.stringify(schema)}` };
  for (const key of Object.keys(schema)) if (!GEMINI_SCHEMA_KEYS.has(key)) return unknownName(key, at);
  const type = schema['type'];
  if (Array.isArray(type)) return { message: `Invalid JSON payload received. Proto field is not repeating, cannot start list. at '${at}.type'` };
  // Enum names are read case-insensitively, as the API's JSON parser does.
  if (type !== undefined && (typeof type !== 'string' || !GEMINI_TYPES.has(type.toUpperCase()))) {
    return { message: `Invalid value at '${at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(type)}` };
  }
  const properties = schema['properties'];
  if (properties !== undefined) {
    if (!isObject(properties)) return { message: `Invalid value at '${at}.properties', expected an object` };
    let index = 0;
    for (const child of Object.values(properties)) {
      const problem = geminiSchemaProblem(child, `${at}.properties[${index}].value`);
      if (problem !== null) return problem;
      index++;
    }
  }
  if (schema['items'] !== undefined) {
    const problem = geminiSchemaProblem(schema['items'], `${at}.items`);
    if (problem !== null) return problem;
  }
  if (Array.isArray(schema['anyOf'])) {
    for (let i = 0; i < schema['anyOf'].length; i++) {
      const problem = geminiSchemaProblem(schema['anyOf'][i], `${at}.any_of[${i}]`);
      if (problem !== null) return problem;
    }
  }
  return null;
}
