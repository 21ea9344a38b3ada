/**
 * Turns zod issues into text that names the field and says what to send
 * (docs/harness-rules.md#validation-errors, docs/harness-rules.md#the-tool-pipeline): "file_path: expected string, received number —
 * send file_path as a string. <field description>". Built from the issue's
 * code and path and from the same JSON Schema the model was shown; never from
 * zod's message text, which changes between versions.
 */
import type { z } from 'zod';
import type { JsonSchema } from '../../providers/types.js';

export interface ValidationFailure {
  ok: false;
  /** Dotted path of the first offending field (`input` for the arguments object itself). */
  field: string;
  /** One line per problem (at most five), each naming its field. */
  message: string;
}

const MAX_PROBLEMS = 5;

export function describeIssues(issues: readonly z.core.$ZodIssue[], schema: JsonSchema): ValidationFailure {
  const lines = issues.slice(0, MAX_PROBLEMS).map((issue) => describeIssue(issue, schema));
  const more = issues.length - lines.length;
  if (more > 0) lines.push(`(and ${more} more problem${more === 1 ? '' : 's'})`);
  const first = issues[0];
  return { ok: false, field: first ? fieldOf(first) : 'input', message: lines.join('\n') };
}

function fieldOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys' && issue.path.length === 0) return issue.keys[0] ?? 'input';
  return issue.path.length === 0 ? 'input' : issue.path.map(String).join('.');
}

function describeIssue(issue: z.core.$ZodIssue, root: JsonSchema): string {
  const field = fieldOf(issue);
  const fieldSchema = issue.path.length === 0 ? root : schemaAt(root, issue.path);
  const advice = () => `send ${field} as ${typePhrase(fieldSchema)}.${descriptionOf(fieldSchema)}`;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.path.length === 0) {
        return `input: expected an object, received ${received(issue.input)} — send the arguments as one JSON object with the fields ${fieldList(root)}.`;
      }
      if (issue.input === undefined) return `${field}: missing required field — ${advice()}`;
      const got = issue.expected === 'int' && typeof issue.input === 'number' ? String(issue.input) : received(issue.input);
      return `${field}: expected ${expectedPhrase(issue.expected)}, received ${got} — ${advice()}`;
    }
    case 'unrecognized_keys':
      return `${issue.keys.map((k) => `"${k}"`).join(', ')}: unknown field${issue.keys.length === 1 ? '' : 's'} — the fields are ${fieldList(schemaAt(root, issue.path))}; check the spelling.`;
    case 'too_small':
      return `${field}: ${bound('at least', 'more than', issue.origin, issue.minimum, issue.inclusive)} — ${advice()}`;
    case 'too_big':
      return `${field}: ${bound('at most', 'less than', issue.origin, issue.maximum, issue.inclusive)} — ${advice()}`;
    case 'invalid_value':
      return `${field}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} — ${advice()}`;
    case 'invalid_format':
      return `${field}: must be a valid ${issue.format} — ${advice()}`;
    case 'not_multiple_of':
      return `${field}: must be a multiple of ${String(issue.divisor)} — ${advice()}`;
    default:
      // invalid_union, invalid_key, invalid_element, custom: no better wording than the schema itself.
      return `${field}: invalid value — ${advice()}`;
  }
}

function bound(inclusiveWord: string, exclusiveWord: string, origin: string, limit: number | bigint, inclusive?: boolean): string {
  const word = inclusive === false ? exclusiveWord : inclusiveWord;
  if (origin === 'string') {
    if (limit === 1 && inclusiveWord === 'at least' && inclusive !== false) return 'must not be empty';
    return `must be ${word} ${String(limit)} characters long`;
  }
  if (origin === 'array' || origin === 'set') return `must have ${word} ${String(limit)} items`;
  return `must be ${word} ${String(limit)}`;
}

function schemaAt(root: JsonSchema, path: readonly PropertyKey[]): JsonSchema {
  let at: unknown = root;
  for (const segment of path) {
    if (!isRecord(at)) return {};
    at = typeof segment === 'number' ? at.items : isRecord(at.properties) ? at.properties[String(segment)] : undefined;
  }
  return isRecord(at) ? at : {};
}

function typePhrase(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  switch (schema.type) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return 'a value matching the tool schema';
  }
}

function expectedPhrase(expected: string): string {
  return expected === 'int' ? 'an integer' : expected;
}

function descriptionOf(schema: JsonSchema): string {
  return typeof schema.description === 'string' ? ` ${schema.description}` : '';
}

function fieldList(schema: JsonSchema): string {
  const names = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  return names.length > 0 ? names.join(', ') : '(none)';
}

function received(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
