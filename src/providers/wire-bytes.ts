/**
 * Exact UTF-8 sizes of JSON bodies assembled from parts, without serializing
 * the whole body. JSON.stringify of an array is `[` + the elements joined by
 * `,` + `]`, and adding a key to an object that already has one appends
 * `,"key":value` before its `}`; so a body's size is the sum of its parts'
 * sizes plus that punctuation. Each part is still measured by JSON.stringify
 * (never re-derived by hand), so escaping and number formatting are the
 * serializer's own.
 */

/** Size of a value as it goes on the wire (compact JSON, UTF-8); 0 for `undefined` (a key JSON leaves out). */
export function jsonBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Size of a JSON array whose elements measure `sizes` (the `[`, `]` and the commas between them). */
export function arrayBytes(sizes: number, count: number): number {
  return 2 + sizes + Math.max(0, count - 1);
}

/** What adding `"key": value` to a JSON object that already has a key adds to its size (`,"key":value`). */
export function addedKeyBytes(key: string, value: unknown): number {
  return 1 + jsonBytes(key) + 1 + jsonBytes(value);
}
