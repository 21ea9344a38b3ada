/**
 * Compiles the zod event schemas (through their JSON Schema) into SQL that
 * is true exactly when `parseLine()` would accept a line: a key-set check on
 * the raw line and a value check on the per-key raw JSON texts. The bulk
 * check runs inside DuckDB; JS only explains the rejected lines (parseLine is
 * the single source of reason text).
 *
 * Agreement with parseLine is proven in validity-sql.test.ts.
 */
import { z } from 'zod';
import { EVENT_NAMES, EVENT_SCHEMAS, type EventName } from '../events/schemas.js';
import { sqlString } from './duck.js';

export interface SchemaNode {
  type?: string | string[];
  anyOf?: SchemaNode[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
}

export function eventJsonSchema(event: EventName): SchemaNode {
  return z.toJSONSchema(EVENT_SCHEMAS[event], { io: 'input' }) as SchemaNode;
}

/** Name of the staged column holding a key's raw JSON text (NULL when absent or JSON null). */
export function jsonCol(key: string): string {
  return `"j_${key}"`;
}

/** JSON string text -> its value; unescape only when there is something to unescape. */
export function jsonText(j: string): string {
  return `CASE WHEN contains(${j}, '\\') THEN json_extract_string(${j}, '$') ELSE ${j}[2:-2] END`;
}

function numberBounds(node: SchemaNode, d: string): string[] {
  const out: string[] = [];
  if (node.minimum !== undefined) out.push(`${d} >= ${node.minimum}`);
  if (node.maximum !== undefined) out.push(`${d} <= ${node.maximum}`);
  if (node.exclusiveMinimum !== undefined) out.push(`${d} > ${node.exclusiveMinimum}`);
  if (node.exclusiveMaximum !== undefined) out.push(`${d} < ${node.exclusiveMaximum}`);
  if (node.const !== undefined) out.push(`${d} = ${Number(node.const)}`);
  return out;
}

function stringChecks(node: SchemaNode, s: string): string[] {
  const out: string[] = [];
  if (typeof node.const === 'string') out.push(`${s} = ${sqlString(node.const)}`);
  if (node.enum) out.push(`${s} IN (${node.enum.map((e) => sqlString(String(e))).join(', ')})`);
  if (node.pattern !== undefined) {
    const anchored = node.pattern.startsWith('^') && node.pattern.endsWith('$');
    const inner = anchored ? node.pattern.slice(1, -1) : node.pattern;
    out.push(`${anchored ? 'regexp_full_match' : 'regexp_matches'}(${s}, ${sqlString(inner)})`);
  }
  // zod counts code points, like DuckDB's length().
  if (node.maxLength !== undefined) out.push(`length(${s}) <= ${node.maxLength}`);
  if (node.minLength !== undefined) out.push(`length(${s}) >= ${node.minLength}`);
  return out;
}

const and = (parts: string[]): string => (parts.length === 0 ? 'true' : parts.map((p) => `(${p})`).join(' AND '));

const SAFE_53 = 9007199254740991;
const plain = (v: unknown): v is string => typeof v === 'string' && /^[^"\\\u0000-\u001f]*$/.test(v);

/**
 * A cheap test on the JSON text that, when true, proves `node` holds (a
 * sufficient condition; when false the general check decides). Almost every
 * real value is decided here by one comparison or one small regex.
 */
function fastPath(node: SchemaNode, j: string): string | null {
  switch (node.type) {
    case 'string': {
      if (plain(node.const)) return `${j} = ${sqlString(`"${node.const}"`)}`;
      if (node.enum?.every(plain)) return `${j} IN (${node.enum.map((e) => sqlString(`"${e}"`)).join(', ')})`;
      if (node.pattern?.startsWith('^') && node.pattern.endsWith('$') && !/["\\]/.test(node.pattern.slice(1, -1)) && node.maxLength === undefined && node.minLength === undefined) {
        // The class has no quote/backslash, so a match means the text has no escapes and equals the value.
        return `regexp_full_match(${j}, ${sqlString(`"(?:${node.pattern.slice(1, -1)})"`)})`;
      }
      if (node.pattern === undefined && (node.minLength ?? 0) <= 1) {
        // Escapes only lengthen the text, so text bytes - 2 >= code points of the value.
        const parts = [`${j}[1] = '"'`];
        if (node.maxLength !== undefined) parts.push(`strlen(${j}) <= ${node.maxLength + 2}`);
        if (node.minLength === 1) parts.push(`${j} <> '""'`);
        return parts.join(' AND ');
      }
      return null;
    }
    case 'integer': {
      const min = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined);
      if (node.maximum !== SAFE_53) return null;
      if (min === 0) return `regexp_full_match(${j}, '0|[1-9][0-9]{0,14}')`;
      if (min === 1) return `regexp_full_match(${j}, '[1-9][0-9]{0,14}')`;
      if (min === -SAFE_53) return `regexp_full_match(${j}, '-?(?:0|[1-9][0-9]{0,14})')`;
      return null;
    }
    case 'number':
      if (node.const === 1) return `${j} = '1'`;
      if (node.minimum === 0 && node.maximum === undefined) return `regexp_full_match(${j}, '(?:0|[1-9][0-9]{0,14})(?:\\.[0-9]{1,15})?')`;
      return null;
    default:
      return null;
  }
}

/**
 * SQL that is true when the raw JSON text `j` (as DuckDB re-serialises it)
 * satisfies `node`. The first character tells the JSON type.
 */
export function valueCheck(node: SchemaNode, j: string): string {
  const fast = fastPath(node, j);
  const general = generalCheck(node, j);
  // CASE, not OR: DuckDB evaluates both sides of an OR, but only the rows that need it in an ELSE.
  return fast ? `(CASE WHEN ${fast} THEN true ELSE ${general} END)` : general;
}

function generalCheck(node: SchemaNode, j: string): string {
  if (node.anyOf) return `(${node.anyOf.map((n) => valueCheck(n, j)).join(' OR ')})`;
  const type = Array.isArray(node.type) ? undefined : node.type;
  switch (type) {
    case 'null':
      // DuckDB's MAP(VARCHAR, JSON) holds a JSON null as SQL NULL; key presence is checked separately.
      return `${j} IS NULL`;
    case 'boolean':
      return `${j} IN ('true', 'false')`;
    case 'string':
      return and([`${j}[1] = '"'`, ...stringChecks(node, jsonText(j))]);
    case 'integer':
    case 'number': {
      const d = `try_cast(${j} AS DOUBLE)`;
      const parts = [`${j}[1] IN ('-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9')`, `isfinite(${d})`, ...numberBounds(node, d)];
      if (type === 'integer') parts.push(`floor(${d}) = ${d}`);
      return and(parts);
    }
    case 'array': {
      const items = node.items ? valueCheck(node.items, '(e::VARCHAR)') : 'true';
      return and([`${j}[1] = '['`, `coalesce(list_bool_and(list_transform(json_transform(${j}, '["JSON"]'), e -> coalesce(${items}, false))), true)`]);
    }
    default:
      throw new Error(`validity-sql: unsupported JSON Schema node ${JSON.stringify(node)}`);
  }
}

/** Splits `anyOf [X, null]` into X and a nullable flag. */
function stripNull(node: SchemaNode): { base: SchemaNode; nullable: boolean } {
  if (!node.anyOf) return { base: node, nullable: node.type === 'null' };
  const rest = node.anyOf.filter((n) => n.type !== 'null');
  const nullable = rest.length !== node.anyOf.length;
  return { base: rest.length === 1 ? (rest[0] as SchemaNode) : { anyOf: rest }, nullable };
}

/**
 * One expression over staged values (`j_*`, raw JSON text per key): does
 * every value satisfy its event's schema? Never NULL. The key set is checked
 * on the raw line (keysValidSql), so here a key either belongs to the event
 * or is NULL. Checks are per column, not per event: most columns have the
 * same schema in every event, which keeps the SQL small enough to plan fast.
 */
export function valuesValidSql(): string {
  const byColumn = new Map<string, { event: EventName; node: SchemaNode }[]>();
  for (const event of EVENT_NAMES) {
    for (const [name, node] of Object.entries(eventJsonSchema(event).properties ?? {})) {
      const list = byColumn.get(name) ?? [];
      list.push({ event, node });
      byColumn.set(name, list);
    }
  }
  const parts: string[] = [`${jsonCol('event')} IN (${EVENT_NAMES.map((e) => sqlString(`"${e}"`)).join(', ')})`];
  for (const [name, uses] of byColumn) {
    const j = jsonCol(name);
    const nonNullable = uses.filter((u) => !stripNull(u.node).nullable).map((u) => sqlString(`"${u.event}"`));
    // Absent keys are excluded by the raw-line check, so NULL here is a JSON null (or a key of no event).
    const whenNull = nonNullable.length === 0 ? 'true' : `${jsonCol('event')} NOT IN (${nonNullable.join(', ')})`;
    const groups = new Map<string, { base: SchemaNode; events: EventName[] }>();
    for (const u of uses) {
      const { base } = stripNull(u.node);
      const key = JSON.stringify(base);
      const g = groups.get(key) ?? { base, events: [] };
      g.events.push(u.event);
      groups.set(key, g);
    }
    const checks = [...groups.values()];
    const value =
      checks.length === 1
        ? valueCheck((checks[0] as { base: SchemaNode }).base, j)
        : `CASE ${checks.map((g) => `WHEN ${jsonCol('event')} IN (${g.events.map((e) => sqlString(`"${e}"`)).join(', ')}) THEN ${valueCheck(g.base, j)}`).join(' ')} ELSE false END`;
    parts.push(`CASE WHEN ${j} IS NULL THEN ${whenNull} ELSE ${value} END`);
  }
  return `coalesce(${and(parts)}, false)`;
}

/**
 * Over a raw line's key list `k` and event name `ev` (both NULL unless the
 * line is a JSON object): is the key set exactly its event's? strictObject
 * means every key required, no extras; duplicates fail too. Never NULL.
 */
export function keysValidSql(k = 'k', ev = 'ev'): string {
  const branches = EVENT_NAMES.map((e) => {
    const keys = Object.keys(eventJsonSchema(e).properties ?? {}).sort();
    // |k| = |keys| and k contains every key  =>  same set, no extras, no duplicates (cheaper than sorting).
    return `WHEN ${sqlString(e)} THEN len(${k}) = ${keys.length} AND list_has_all(${k}, [${keys.map(sqlString).join(', ')}])`;
  });
  return `coalesce(CASE ${ev}\n  ${branches.join('\n  ')}\n  ELSE false END, false)`;
}

/**
 * `k` and `ev` for keysValidSql from a raw line, NULL unless the line is
 * valid JSON (a guard is cheaper than try(), which falls back to row-by-row
 * evaluation). A non-object line has no matching key set, so it fails too.
 */
export function keysAndEventSql(line = 'line'): string {
  return `CASE WHEN json_valid(${line}) THEN json_keys(${line}) END AS k, CASE WHEN json_valid(${line}) THEN json_extract_string(${line}, '$.event') END AS ev`;
}
