import { describe, expect, it } from 'vitest';
import { checkEventAssertion, parseEventAssertion, type EventRecord } from './event-assertion.js';

const events: EventRecord[] = [
  { event: 'tool_call', tool: 'read' },
  { event: 'tool_call', tool: '<unknown>', requested_tool: 'find_file' },
  { event: 'tool_success', tool: 'read' },
  { event: 'tool_failure', tool: '<unknown>', failure_kind: 'not_found' },
  { event: 'tool_call', tool: 'bash' },
  { event: 'model_response', stop_class: 'null', stop_reason: null },
];

describe('event assertions', () => {
  it('counts events matching every condition', () => {
    const a = parseEventAssertion('count(tool_failure where failure_kind = not_found and tool = "<unknown>") == 1');
    expect(checkEventAssertion(a, events)).toEqual({ ok: true, actual: 1 });
  });

  it('computes lost as calls minus successes minus failures', () => {
    expect(checkEventAssertion(parseEventAssertion('lost == 0'), events)).toEqual({ ok: false, actual: 1 });
  });

  it('tells the string "null" from a JSON null', () => {
    expect(checkEventAssertion(parseEventAssertion('count(model_response where stop_class = "null") == 1'), events).ok).toBe(true);
    expect(checkEventAssertion(parseEventAssertion('count(model_response where stop_reason = null) == 1'), events).ok).toBe(true);
    expect(checkEventAssertion(parseEventAssertion('count(model_response where stop_class = null) == 1'), events).ok).toBe(false);
  });

  it('supports != conditions and all comparators', () => {
    expect(checkEventAssertion(parseEventAssertion('count(tool_call where tool != read) >= 2'), events).ok).toBe(true);
    expect(checkEventAssertion(parseEventAssertion('count(tool_call) < 3'), events).ok).toBe(false);
  });

  it('counts the distinct values of one field, a missing field counting as one value', () => {
    const requests: EventRecord[] = [
      { event: 'model_request', prefix_hash: 'a' },
      { event: 'model_request', prefix_hash: 'a' },
      { event: 'model_request', prefix_hash: 'b', turn: 3 },
      { event: 'model_response', prefix_hash: 'c' },
    ];
    expect(checkEventAssertion(parseEventAssertion('distinct(model_request.prefix_hash) == 2'), requests)).toEqual({ ok: true, actual: 2 });
    expect(checkEventAssertion(parseEventAssertion('distinct(model_request.prefix_hash where turn = 3) == 1'), requests).ok).toBe(true);
    expect(checkEventAssertion(parseEventAssertion('distinct(model_request.turn) == 2'), requests).ok).toBe(true);
    expect(() => parseEventAssertion('distinct(model_request) == 1')).toThrow(/distinct\(event\.field\)/);
  });

  it('rejects malformed assertions with a reason', () => {
    expect(() => parseEventAssertion('count(tool_call where) == 1')).toThrow(/expected/);
    expect(() => parseEventAssertion('sum(tool_call) == 1')).toThrow(/count\(\.\.\.\) or lost/);
    expect(() => parseEventAssertion('lost = 0')).toThrow(/comparison/);
    expect(() => parseEventAssertion('lost == 0 extra')).toThrow(/unexpected/);
  });
});

describe('parsed assertions shared between tasks', () => {
  it('parses a text once and hands every caller the same frozen assertion', () => {
    const first = parseEventAssertion('count(tool_failure where tool = read) == 1');
    expect(parseEventAssertion('count(tool_failure where tool = read) == 1')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.metric)).toBe(true);
    if (first.metric.kind !== 'count') throw new Error('expected a count');
    expect(() => (first.metric as { where: unknown[] }).where.push({ field: 'tool', negate: false, value: 'bash' })).toThrow(TypeError);
    expect(checkEventAssertion(parseEventAssertion('count(tool_failure where tool = read) == 1'), events).actual).toBe(0);
  });

  it('still throws for a text that does not parse, each time it is asked', () => {
    expect(() => parseEventAssertion('count(tool_call == 1')).toThrow();
    expect(() => parseEventAssertion('count(tool_call == 1')).toThrow();
  });
});
