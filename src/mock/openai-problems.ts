/** How both OpenAI APIs (Chat Completions, Responses) word a body problem: message, `param` and `code`. */
import type { RequestProblem } from './decoded-request.js';
import { jsonTypeName } from './json-shape.js';

/** "'a', 'b', and 'c'" as the API lists supported values. */
export const listed = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ', and $1');

export const missing = (param: string): RequestProblem => ({ message: `Missing required parameter: '${param}'.`, param, code: 'missing_required_parameter' });

export const invalidType = (param: string, expected: string, value: unknown): RequestProblem => ({
  message: `Invalid type for '${param}': expected ${expected}, but got ${jsonTypeName(value)} instead.`,
  param,
  code: 'invalid_type',
});

export const invalidValue = (param: string, value: unknown, supported: readonly string[]): RequestProblem => ({
  message: `Invalid value: '${String(value)}'. Supported values are: ${listed(supported)}.`,
  param,
  code: 'invalid_value',
});
