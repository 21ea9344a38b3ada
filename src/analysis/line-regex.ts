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
import type { EventName } from '../events/schemas.js';
import { eventJsonSchema, type SchemaNode } from './schema-nodes.js';

function lit(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** JSON text of a plain string (every const, enum value and key here is plain). */
const jsonStr = (s: string) => lit(JSON.stringify(s));

const UNIT = '(?:[ !#-\\[\\]-~]|\\\\["\\\\/bfnrt])';
const INT = '(?:0|[1-9][0-9]{0,14})';
const FRACTION = '(?:\\.[0-9]{1,17})?';
const WS = '[ \\t]*';

function stringRegex(node: SchemaNode): string | null {
  if (typeof node.const === 'string') return jsonStr(node.const);
  if (node.enum) return `(?:${node.enum.map((e) => jsonStr(String(e))).join('|')})`;
  if (node.pattern !== undefined) {
    // Plain character-class patterns such as ^[A-Za-z0-9_.-]{1,128}$ match their own JSON text.
    const m = /^\^(\[[^\]"\\]*\]\{\d+,\d+\})\$$/.exec(node.pattern);
    return m ? `"${m[1]}"` : null;
  }
  return `"${UNIT}{${node.minLength ?? 0},${node.maxLength ?? ''}}"`;
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
export function valueRegex(node: SchemaNode): string | null {
  if (node.anyOf) {
    const parts = node.anyOf.map(valueRegex);
    return parts.every((p) => p !== null) ? `(?:${parts.join('|')})` : null;
  }
  switch (node.type) {
    case 'null':
      return 'null';
    case 'boolean':
      return '(?:true|false)';
    case 'string':
      return stringRegex(node);
    case 'integer':
      return numberRegex(node, true);
    case 'number':
      return numberRegex(node, false);
    case 'array': {
      const item = node.items ? valueRegex(node.items) : null;
      return item === null ? null : `\\[${WS}(?:${item}(?:${WS},${WS}${item})*)?${WS}\\]`;
    }
    default:
      return null;
  }
}

/** Matcher for a whole line of `event` with its keys in `order`; null when the order is not the event's key set or a value has no fast form. */
export function eventLineRegex(event: EventName, order: readonly string[]): RegExp | null {
  const props = eventJsonSchema(event).properties ?? {};
  const keys = Object.keys(props);
  if (order.length !== keys.length || new Set(order).size !== order.length || !order.every((k) => Object.hasOwn(props, k))) return null;
  const pairs: string[] = [];
  for (const key of order) {
    const value = valueRegex(props[key] as SchemaNode);
    if (value === null) return null;
    pairs.push(`${jsonStr(key)}${WS}:${WS}${value}`);
  }
  return new RegExp(`^${WS}\\{${WS}${pairs.join(`${WS},${WS}`)}${WS}\\}[ \\t\\r]*$`);
}
