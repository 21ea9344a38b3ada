/**
 * Event assertions in suite files, a deliberately tiny language:
 *   count(tool_failure where failure_kind = not_found and tool = read) == 1
 *   count(defense_trigger) >= 1
 *   lost == 0          (tool_call - tool_success - tool_failure)
 *   distinct(model_request.prefix_hash) == 1      (values of one field; a missing field counts as one value)
 * Parsed once at load time so a typo fails the suite, not the run.
 */
import { deepFreeze } from './deep-freeze.js';

type Value = string | number | boolean | null;
/** `*At` fields are 0-based offsets into the assertion text, so a load error can point at the word. */
export interface Condition {
  field: string;
  negate: boolean;
  value: Value;
  fieldAt?: number;
  valueAt?: number;
}
export type Metric =
  | { kind: 'lost' }
  | { kind: 'count'; event: string; where: Condition[]; eventAt?: number }
  | { kind: 'distinct'; event: string; field: string; where: Condition[]; eventAt?: number; fieldAt?: number };
export type Comparator = '==' | '!=' | '>=' | '<=' | '>' | '<';
export interface EventAssertion {
  source: string;
  metric: Metric;
  op: Comparator;
  expected: number;
}

/** A syntax error in an assertion; `offset` (0-based, into the assertion text) is where it was found. */
export class AssertionSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'AssertionSyntaxError';
  }
}

const TOKEN = /\s*(>=|<=|==|!=|[()<>=]|"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z_<][A-Za-z0-9_.\-<>]*|-?\d+(?:\.\d+)?)/y;

interface Token {
  text: string;
  at: number;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let index = 0;
  while (index < source.length) {
    if (source.slice(index).trim() === '') break;
    TOKEN.lastIndex = index;
    const match = TOKEN.exec(source);
    const at = index + (source.slice(index).length - source.slice(index).trimStart().length);
    if (!match) throw new AssertionSyntaxError(`unexpected text at column ${at + 1}: "${source.slice(at, at + 12)}"`, at);
    tokens.push({ text: match[1]!, at: TOKEN.lastIndex - match[1]!.length });
    index = TOKEN.lastIndex;
  }
  return tokens;
}

/**
 * Parsed assertions by their text: a suite's tasks share a few assertions, each read at load, again for the events a
 * session keeps and again for its check (2,000 tasks: 6,000 parses of the same line). A parse depends on the text
 * alone and is frozen, so one task cannot change what another checks; a text that fails is parsed (and throws) each time.
 */
const parsed = new Map<string, EventAssertion>();
const MAX_PARSED = 4096;

export function parseEventAssertion(source: string): EventAssertion {
  const known = parsed.get(source);
  if (known !== undefined) return known;
  const assertion = deepFreeze(parseText(source));
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(source, assertion);
  return assertion;
}

function parseText(source: string): EventAssertion {
  const tokens = tokenize(source);
  let pos = 0;
  const end = source.trimEnd().length;
  const peek = () => tokens[pos]?.text;
  /** Where the last taken token starts (the end of the text once all are taken). */
  const here = () => tokens[pos - 1]?.at ?? end;
  function fail(message: string, at = here()): never {
    throw new AssertionSyntaxError(message, at);
  }
  const take = (expected?: string): string => {
    const token = tokens[pos++];
    if (token === undefined) return fail(`unexpected end${expected ? `, expected "${expected}"` : ''}`, end);
    if (expected !== undefined && token.text !== expected) fail(`expected "${expected}" but found "${token.text}"`);
    return token.text;
  };
  let metric: Metric;
  const head = take();
  if (head === 'lost') metric = { kind: 'lost' };
  else if (head === 'count' || head === 'distinct') {
    take('(');
    let event = take();
    const eventAt = here();
    let field = '';
    if (head === 'distinct') {
      const dot = event.indexOf('.');
      if (dot <= 0 || dot === event.length - 1) fail(`expected distinct(event.field), found "${event}"`);
      [event, field] = [event.slice(0, dot), event.slice(dot + 1)];
    }
    const where: Condition[] = [];
    if (peek() === 'where') {
      take('where');
      for (;;) {
        const field = take();
        const fieldAt = here();
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) fail(`expected a field name, found "${field}"`);
        const op = take();
        if (op !== '=' && op !== '==' && op !== '!=') fail(`expected = or != after ${field}, found "${op}"`);
        const value = literal(take());
        where.push({ field, negate: op === '!=', value, fieldAt, valueAt: here() });
        if (peek() !== 'and') break;
        take('and');
      }
    }
    take(')');
    metric = head === 'count' ? { kind: 'count', event, where, eventAt } : { kind: 'distinct', event, field, where, eventAt, fieldAt: eventAt + event.length + 1 };
  } else fail(`expected count(...) or lost (or distinct(event.field)), found "${head}"`);
  const op = take();
  if (!['==', '!=', '>=', '<=', '>', '<'].includes(op)) fail(`expected a comparison (== != >= <= > <), found "${op}"`);
  const expected = Number(take());
  if (!Number.isFinite(expected)) fail('expected a number after the comparison');
  if (pos < tokens.length) fail(`unexpected "${tokens[pos]!.text}" after the assertion`, tokens[pos]!.at);
  return { source, metric, op: op as Comparator, expected };
}

function literal(token: string): Value {
  if (token.startsWith('"')) return JSON.parse(token) as string;
  if (token.startsWith("'")) return token.slice(1, -1);
  if (token === 'true' || token === 'false') return token === 'true';
  if (token === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(token)) return Number(token);
  return token;
}

export type EventRecord = Record<string, unknown> & { event: string };

export function measure(metric: Metric, events: readonly EventRecord[]): number {
  if (metric.kind === 'lost') {
    const n = (name: string) => events.filter((e) => e.event === name).length;
    return n('tool_call') - n('tool_success') - n('tool_failure');
  }
  const matching = events.filter(
    (e) => e.event === metric.event && metric.where.every((c) => (e[c.field] === c.value) !== c.negate),
  );
  return metric.kind === 'count' ? matching.length : new Set(matching.map((e) => e[metric.field])).size;
}

/** The event names a metric reads: measure() looks at no other event. */
export function eventsRead(metric: Metric): string[] {
  return metric.kind === 'lost' ? ['tool_call', 'tool_success', 'tool_failure'] : [metric.event];
}

export function checkEventAssertion(a: EventAssertion, events: readonly EventRecord[]): { ok: boolean; actual: number } {
  const actual = measure(a.metric, events);
  const ok =
    a.op === '==' ? actual === a.expected
    : a.op === '!=' ? actual !== a.expected
    : a.op === '>=' ? actual >= a.expected
    : a.op === '<=' ? actual <= a.expected
    : a.op === '>' ? actual > a.expected
    : actual < a.expected;
  return { ok, actual };
}
