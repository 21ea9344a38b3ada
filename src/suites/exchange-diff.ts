/**
 * The first place two JSON values differ, as a readable path
 * (`messages[3].content[0].content`), for replay divergence messages. Keys
 * are walked in the recorded value's order, so the report follows the
 * request's own layout (prefix first, newest message last).
 */

export interface Difference {
  path: string;
  recorded: unknown;
  sent: unknown;
}

const ABSENT = Symbol('absent');

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

export function firstDifference(recorded: unknown, sent: unknown, path = ''): Difference | null {
  if (Object.is(recorded, sent)) return null;
  const bothArrays = Array.isArray(recorded) && Array.isArray(sent);
  const bothObjects =
    typeof recorded === 'object' && recorded !== null && typeof sent === 'object' && sent !== null && !Array.isArray(recorded) && !Array.isArray(sent);
  if (bothArrays) {
    const a = recorded as unknown[];
    const b = sent as unknown[];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(i < a.length ? a[i] : ABSENT, i < b.length ? b[i] : ABSENT, join(path, i));
      if (d) return d;
    }
    return null;
  }
  if (bothObjects) {
    const a = recorded as Record<string, unknown>;
    const b = sent as Record<string, unknown>;
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    for (const key of keys) {
      const d = firstDifference(key in a ? a[key] : ABSENT, key in b ? b[key] : ABSENT, join(path, key));
      if (d) return d;
    }
    return null;
  }
  return { path: path || '(root)', recorded: recorded === ABSENT ? undefined : recorded, sent: sent === ABSENT ? undefined : sent };
}

/** A value for a one-line message: JSON, cut to `max` characters; `(absent)` for a missing field. */
export function preview(value: unknown, max = 80): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
