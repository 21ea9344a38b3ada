/**
 * The fast path's check (one narrowed TaskSpec per set of keys) must give what
 * the whole SuiteSpec gives for every suite that passes, key order included,
 * and pass nothing the whole schema rejects.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fastParse } from './fast-yaml.js';
import { findSuiteFiles } from './load-suite.js';
import { SuiteSpec } from './schema.js';
import { validateByShape } from './validate-by-shape.js';

const suites = findSuiteFiles(['suites', 'tests/live/real-api.yaml', 'examples']);

describe('validateByShape', () => {
  it('gives the same output as SuiteSpec, key order included, for every shipped suite (both zod paths)', () => {
    expect(suites.length).toBeGreaterThan(10);
    for (const file of suites) {
      const text = readFileSync(file, 'utf8');
      const fast = fastParse(text);
      const value: unknown = fast.ok ? fast.value : parse(text);
      const whole = SuiteSpec.safeParse(value);
      for (const params of [undefined, { jitless: true }]) {
        const narrowed = validateByShape(value, params);
        if (!whole.success) expect(narrowed, file).toBeNull();
        else expect(JSON.stringify(narrowed), file).toBe(JSON.stringify(whole.data));
      }
    }
  });

  const task = { id: 'a', prompt: 'hi', script: [{ text: 'x' }] };
  it.each([
    ['an unknown task key', { tasks: [{ ...task, promt: 'typo' }] }],
    ['a missing required key', { tasks: [{ id: 'a', script: [{ text: 'x' }] }] }],
    ['a bad value in a key the first task of that shape did not have', { tasks: [task, { ...task, id: 'b', max_turns: 2 }, { ...task, id: 'c', max_turns: -1 }] }],
    ['an unknown top-level key', { tasks: [task], defualts: {} }],
    ['a task that is not an object', { tasks: [task, 'b'] }],
    ['no tasks', { tasks: [] }],
  ])('rejects what SuiteSpec rejects: %s', (_name, value) => {
    expect(SuiteSpec.safeParse(value).success).toBe(false);
    expect(validateByShape(value)).toBeNull();
  });

  it('fills in what zod fills in for keys a task leaves out (expect, a tool call input, usage defaults)', () => {
    const value = { tasks: [{ ...task, script: [{ tool_use: [{ name: 'read' }], usage: {} }] }, { ...task, id: 'b', max_turns: 3 }] };
    const whole = SuiteSpec.parse(value);
    expect(whole.tasks[0]!.expect).toEqual({});
    expect(JSON.stringify(validateByShape(value))).toBe(JSON.stringify(whole));
  });
});
