/**
 * A regular expression over a raw JSONL line (bytes read as latin1) that
 * matches only lines `parseLine()` accepts: a sufficient condition, so most
 * lines are checked without JSON.parse or zod. A line that does not match is
 * not necessarily bad; parseLine decides and explains.
 *
 * The keys must appear in a given order (producers write a fixed order per
 * event; the scanner learns it from the first valid line), so a match also
 * proves the key set is exact, with no duplicates. Values are matched from the
 * event's JSON Schema, conservatively: printable ASCII strings with two-char
 * escapes only (each is one UTF-16 unit, so `{0,N}` counts what zod counts),
 * numbers without exponents and below 10^15.
 */
import type { EventName } from './schemas.js';
import { eventJsonSchema, type SchemaNode } from './schema-nodes.js';

function lit(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** JSON text of a plain string (every const, enum value and key here is plain). */
const jsonStr = (s: string) => lit(JSON.stringify(s));

/**
 * Two flavours of the same check. `compact` is what most producers write (no
 * whitespace between tokens, no escapes in strings) and runs fastest as a
 * plain character class; `general` also takes whitespace and two-char escapes.
 */
export type Flavour = 'compact' | 'general';

interface Syntax {
  unit: string;
  ws: string;
}

const SYNTAX: Record<Flavour, Syntax> = {
  compact: { unit: '[ !#-\\[\\]-~]', ws: '' },
  general: { unit: '(?:[ !#-\\[\\]-~]|\\\\["\\\\/bfnrt])', ws: '[ \\t]*' },
};
const INT = '(?:0|[1-9][0-9]{0,14})';
const FRACTION = '(?:\\.[0-9]{1,17})?';

/** One character class of plain characters (letters, digits, `_`, `.`, `-`) and an optional count: `[a-z]`, `[A-Za-z0-9_.-]{1,128}`. */
const PLAIN_CLASS = /\[([A-Za-z0-9_.-]+)\](\{\d+(?:,\d+)?\})?/y;

/** A class whose every character prints as itself in JSON: printable ASCII, never `"` or `\\` (checked over all of ASCII, so a range cannot sneak one in). */
function printsAsItself(cls: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(`^[${cls}]$`);
  } catch {
    return false; // a range out of order: no fast form
  }
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (re.test(ch) && (c < 0x20 || c === 0x7f || ch === '"' || ch === '\\')) return false;
  }
  return true;
}

/**
 * The body of an anchored pattern made only of plain classes, such as
 * ^[A-Za-z0-9_.-]{1,128}$ or ^[a-z][a-z0-9_]{0,63}$ (a defense name): it
 * matches its own JSON text, which has no escapes. null for any other pattern.
 */
function plainPattern(pattern: string): string | null {
  if (!pattern.startsWith('^') || !pattern.endsWith('$')) return null;
  const body = pattern.slice(1, -1);
  for (let at = 0; at < body.length; at = PLAIN_CLASS.lastIndex) {
    PLAIN_CLASS.lastIndex = at;
    const m = PLAIN_CLASS.exec(body);
    if (m === null || !printsAsItself(m[1] as string)) return null;
  }
  return body.length > 0 ? body : null;
}

function stringRegex(node: SchemaNode, syntax: Syntax): string | null {
  if (typeof node.const === 'string') return jsonStr(node.const);
  if (node.enum) return `(?:${node.enum.map((e) => jsonStr(String(e))).join('|')})`;
  if (node.pattern !== undefined) {
    const body = plainPattern(node.pattern);
    return body === null ? null : `"${body}"`;
  }
  return `"${syntax.unit}{${node.minLength ?? 0},${node.maxLength ?? ''}}"`;
}

function numberRegex(node: SchemaNode, integer: boolean): string | null {
  if (node.const !== undefined) return Number.isInteger(node.const) && (node.const as number) >= 0 ? String(node.const) : null;
  if ((node.maximum !== undefined && node.maximum < 1e15) || node.exclusiveMaximum !== undefined) return null;
  const frac = integer ? '' : FRACTION;
  if (node.minimum === 0 && node.exclusiveMinimum === undefined) return `${INT}${frac}`;
  if (node.exclusiveMinimum === 0 && node.minimum === undefined && integer) return '[1-9][0-9]{0,14}';
  if (node.minimum !== undefined && node.minimum <= -1e15 && node.exclusiveMinimum === undefined) return `-?${INT}${frac}`;
  return null;
}

/** Regex for one JSON value satisfying `node`, or null when it has no safe fast form. */
export function valueRegex(node: SchemaNode, syntax: Syntax = SYNTAX.general): string | null {
  if (node.anyOf) {
    const parts = node.anyOf.map((n) => valueRegex(n, syntax));
    return parts.every((p) => p !== null) ? `(?:${parts.join('|')})` : null;
  }
  switch (node.type) {
    case 'null':
      return 'null';
    case 'boolean':
      return '(?:true|false)';
    case 'string':
      return stringRegex(node, syntax);
    case 'integer':
      return numberRegex(node, true);
    case 'number':
      return numberRegex(node, false);
    case 'array': {
      const item = node.items ? valueRegex(node.items, syntax) : null;
      const ws = syntax.ws;
      return item === null ? null : `\\[${ws}(?:${item}(?:${ws},${ws}${item})*)?${ws}\\]`;
    }
    default:
      return null;
  }
}

/** Matcher for a whole line of `event` with its keys in `order`; null when the order is not a valid key set of the event or a value has no fast form. */
export function eventLineRegex(event: EventName, order: readonly string[], flavour: Flavour = 'general'): RegExp | null {
  const syntax = SYNTAX[flavour];
  const ws = syntax.ws;
  const schema = eventJsonSchema(event);
  const props = schema.properties ?? {};
  // Every required key, optional ones as the producer wrote them, nothing unknown, no key twice.
  const required = schema.required ?? Object.keys(props);
  if (new Set(order).size !== order.length || !order.every((k) => Object.hasOwn(props, k)) || !required.every((k) => order.includes(k))) return null;
  const pairs: string[] = [];
  for (const key of order) {
    const value = valueRegex(props[key] as SchemaNode, syntax);
    if (value === null) return null;
    pairs.push(`${jsonStr(key)}${ws}:${ws}${value}`);
  }
  const end = flavour === 'compact' ? '' : '[ \\t\\r]*';
  return new RegExp(`^${ws}\\{${ws}${pairs.join(`${ws},${ws}`)}${ws}\\}${end}$`);
}
