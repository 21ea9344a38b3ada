/**
 * The copy of a call's input a hook gets: mutating it must change nothing
 * (PreToolUseEvent.input). Tool input is JSON from the model, or a zod parse
 * of it: plain objects, arrays and primitives. Those are copied directly,
 * several times cheaper than structuredClone; anything else — a Date, a Map,
 * a class instance, a function, a sparse or decorated array, a `__proto__`
 * key, a cycle or more than 64 levels — is left to structuredClone exactly as
 * before (which also keeps throwing on what it cannot clone). One difference
 * for plain data: a sub-object referenced twice is copied twice rather than
 * shared, which JSON input cannot express anyway.
 */
const NOT_PLAIN: unique symbol = Symbol('not plain');
const MAX_DEPTH = 64;

export function copyForHook(value: unknown): unknown {
  const copy = plainCopy(value, 0);
  return copy === NOT_PLAIN ? structuredClone(value) : copy;
}

function plainCopy(value: unknown, depth: number): unknown {
  if (value === null) return null;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'undefined' || type === 'bigint') return value;
  if (type !== 'object' || depth >= MAX_DEPTH) return NOT_PLAIN;
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype || Object.keys(value).length !== value.length) return NOT_PLAIN;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = plainCopy(value[i], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === '__proto__') return NOT_PLAIN;
    const item = plainCopy(source[key], depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    out[key] = item;
  }
  return out;
}
