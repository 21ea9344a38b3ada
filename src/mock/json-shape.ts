/** Small type guards for walking request bodies as plain JSON (the request checks and the transcript readers share them). */
export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isString = (value: unknown): value is string => typeof value === 'string';
export const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** The JSON type name the OpenAI API uses in "but got ... instead" messages. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  return 'an object';
}

/** Text of a content value that is a string or a list of parts with `text` (every wire has this shape somewhere). */
export function partsText(content: unknown): string {
  if (isString(content)) return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((p) => (isObject(p) && isString(p['text']) ? [p['text']] : [])).join('');
}
