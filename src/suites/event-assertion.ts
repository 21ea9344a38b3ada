/**
 * Event assertions in suite files, a deliberately tiny language:
 *   count(tool_failure where failure_kind = not_found and tool = read) == 1
 *   count(defense_trigger) >= 1
 *   lost == 0          (tool_call - tool_success - tool_failure)
 *   distinct(model_request.prefix_hash) == 1      (values of one field; a missing field counts as one value)
 * Parsed once at load time so a typo fails the suite, not the run.
 */
type Value = string | number | boolean | null;
export interface Condition {
  field: string;
  negate: boolean;
  value: Value;
}
export type Metric =
  | { kind: 'lost' }
  | { kind: 'count'; event: string; where: Condition[] }
  | { kind: 'distinct'; event: string; field: string; where: Condition[] };
export type Comparator = '==' | '!=' | '>=' | '<=' | '>' | '<';
export interface EventAssertion {
  source: string;
  metric: Metric;
  op: Comparator;
  expected: number;
}

const TOKEN = /\s*(>=|<=|==|!=|[()<>=]|"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z_<][A-Za-z0-9_.\-<>]*|-?\d+(?:\.\d+)?)/y;

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let index = 0;
  while (index < source.length) {
    if (source.slice(index).trim() === '') break;
    TOKEN.lastIndex = index;
    const match = TOKEN.exec(source);
    if (!match) throw new Error(`unexpected text at column ${index + 1}: "${source.slice(index, index + 12)}"`);
    tokens.push(match[1]!);
    index = TOKEN.lastIndex;
  }
  return tokens;
}

export function parseEventAssertion(source: string): EventAssertion {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (expected?: string): string => {
    const token = tokens[pos++];
    if (token === undefined) throw new Error(`unexpected end${expected ? `, expected "${expected}"` : ''}`);
    if (expected !== undefined && token !== expected) throw new Error(`expected "${expected}" but found "${token}"`);
    return token;
  };
  let metric: Metric;
  const head = take();
  if (head === 'lost') metric = { kind: 'lost' };
  else if (head === 'count' || head === 'distinct') {
    take('(');
    let event = take();
    let field = '';
    if (head === 'distinct') {
      const dot = event.indexOf('.');
      if (dot <= 0 || dot === event.length - 1) throw new Error(`expected distinct(event.field), found "${event}"`);
      [event, field] = [event.slice(0, dot), event.slice(dot + 1)];
    }
    const where: Condition[] = [];
    if (peek() === 'where') {
      take('where');
      for (;;) {
        const field = take();
        const op = take();
        if (op !== '=' && op !== '==' && op !== '!=') throw new Error(`expected = or != after ${field}, found "${op}"`);
        where.push({ field, negate: op === '!=', value: literal(take()) });
        if (peek() !== 'and') break;
        take('and');
      }
    }
    take(')');
    metric = head === 'count' ? { kind: 'count', event, where } : { kind: 'distinct', event, field, where };
  } else throw new Error(`expected count(...) or lost (or distinct(event.field)), found "${head}"`);
  const op = take();
  if (!['==', '!=', '>=', '<=', '>', '<'].includes(op)) throw new Error(`expected a comparison (== != >= <= > <), found "${op}"`);
  const expected = Number(take());
  if (!Number.isFinite(expected)) throw new Error('expected a number after the comparison');
  if (pos < tokens.length) throw new Error(`unexpected "${tokens[pos]}" after the assertion`);
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
