/**
 * The fast reader (js-yaml 4, fast-yaml.ts) against `yaml`, the reader whose meaning is the suite's: whatever the
 * fast one reads must be what `yaml` reads (numbers by Object.is: -0, NaN), and what it cannot read the same it
 * must refuse, so that load-suite.ts reads it with `yaml`.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { CORE_SCHEMA, FAILSAFE_SCHEMA, load } from 'js-yaml';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fastParse } from './fast-yaml.js';
import { findSuiteFiles } from './load-suite.js';

/** `yaml`'s reading: its value, or 'error' when the text is no valid YAML for it. */
function exact(text: string): { value: unknown } | 'error' {
  const doc = parseDocument(text);
  return doc.errors.length > 0 ? 'error' : { value: doc.toJS() };
}

/** The fast reading is `yaml`'s, or refused; a text `yaml` rejects is refused too. */
function agrees(text: string): boolean {
  const fast = fastParse(text);
  const slow = exact(text);
  if (!fast.ok) return true;
  return slow !== 'error' && isDeepStrictEqual(fast.value, slow.value);
}

const SCALARS = [
  '', '~', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'false', 'FALSE', 'yes', 'No', 'on', 'OFF', 'y', 'n',
  '0', '-0', '+0', '+12', '-12', '012', '0o17', '0O17', '0o8', '0x1F', '0X1F', '0xg', '-0x1F', '+0x1F', '0b101', '1_000', '1__0',
  '1e3', '1E3', '-1.5e-3', '1.e3', '.5e2', '.5', '+.5', '-.5', '5.', '1.0', '1.10', '-0.0', '.inf', '-.inf', '+.Inf', '.INF', 'inf',
  '.nan', '.NaN', '.NAN', '-.nan', 'nan', '1:20', '190:20:30', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '12345678901234567890',
  '9007199254740993', '0x', '0o', '1e', '- 1', '<<', '=', '"12"', "'true'", '!!str 12', '!!int 12', '!!int 0x1F', '!!float 1.5',
  '!!float 1', '!!bool true', '!!null ""', '!!binary aGk=', '!!timestamp 2001-12-14', '!local x', '&a 12', 'hello world',
];

const DOCUMENTS = [
  'a: 1\nb: [1, 2, {c: d}]\nc: {x: [], y: {}}',
  'a:\nb: ~\n',
  'text: |\n  line one\n  line two\n\nfolded: >\n  one\n  two\n\n  three\nkeep: |+\n  x\n\nstrip: >-\n  y\n',
  'a: "\\u00e9\\t\\"q\\" \\x41"\nb: \'it\'\'s\'\nc: plain # comment\n',
  'a: &x [1, 2]\nb: *x\nc: &y {k: v}\nd: *y\n',
  'base: &b {x: 1}\nuse:\n  <<: *b\n  y: 2\n',
  '__proto__: {polluted: true}\nconstructor: 1\n',
  'tasks:\n  - id: a\n    files: { "a.txt": "x\\n", b.txt: y }\n  - id: b\n',
  '1: a\n1.5: b\n-0: c\ntrue: e\n0x10: f\n.inf: g\n1.0: h\n0o10: k\n',
  'a: not null\nb: [null, ~]\nc: {x: null}\nnullable: 1\nNull_x: 2\n',
  'a: 1\na: 2\n',
  'a: 1\n"a": 2\n',
  '1: a\n"1": b\n',
  'a:\n\t- 1\n',
  'a: "unclosed\n',
  'a: b: c\n',
  'a: [1, 2\n',
  '- a\nb: c\n',
  'a: 1\n---\nb: 2\n',
  '---\na: 1\n...\n',
  '\uFEFFa: 1\n',
  'a: x #not a comment\nb: x#in\n',
  'long: ' + 'x'.repeat(2000) + '\n',
];

/** What `yaml` reads otherwise, which the fast reader must therefore refuse (fast-yaml.ts). */
const REFUSED = [
  '? [a, b]\n: 1\n',
  '[a, b]: 1\n',
  '{a: 1}: x\n',
  'm: {[a]: b}\n',
  'k: &k [a]\nm: {*k : 1}\n',
  '%YAML 1.1\n---\nv: yes\n',
  'null: d\n',
  '~: i\n',
  'a: {Null : 1}\n',
  '- NULL: 1\n',
  '[{~: x}]\n',
  '!!null "": x\n',
];

describe('fastParse reads as yaml does, or refuses', () => {
  it('every plain, quoted and tagged scalar of the 1.2 core schema and its neighbours', () => {
    for (const s of SCALARS) expect(agrees(`v: ${s}\n`), s).toBe(true);
    for (const s of SCALARS) expect(agrees(`[${s}]\n`), `[${s}]`).toBe(true);
  });

  it('reads the numbers, nulls and booleans yaml resolves, with their values', () => {
    const read = (s: string) => {
      const r = fastParse(`v: ${s}\n`);
      return r.ok ? (r.value as { v: unknown }).v : 'refused';
    };
    expect([read('0o17'), read('0x1F'), read('+12'), read('012'), read('1e3'), read('.5'), read('-.inf'), read('.NaN')]).toEqual([15, 31, 12, 12, 1000, 0.5, -Infinity, NaN]);
    expect(Object.is(read('-0'), -0)).toBe(true);
    expect([read('~'), read(''), read('True'), read('FALSE')]).toEqual([null, null, true, false]);
    // YAML 1.1 forms are strings in the 1.2 core schema, as yaml reads them.
    expect([read('0b101'), read('1_000'), read('-0x1F'), read('yes'), read('1:20')]).toEqual(['0b101', '1_000', '-0x1F', 'yes', '1:20']);
  });

  it('documents: block scalars, escapes, anchors, merge keys as plain keys, odd keys, and invalid YAML', () => {
    for (const doc of DOCUMENTS) expect(agrees(doc), doc).toBe(true);
    expect(fastParse(DOCUMENTS[0]!)).toEqual({ ok: true, value: { a: 1, b: [1, 2, { c: 'd' }], c: { x: [], y: {} } } });
    expect(fastParse('a: 1\na: 2\n').ok).toBe(false);
  });

  it('refuses complex keys, null keys and directives, which yaml reads otherwise than js-yaml 4 would', () => {
    for (const doc of REFUSED) expect(fastParse(doc).ok, doc).toBe(false);
    // Why: js-yaml 4 itself reads them, into something else than yaml's value.
    expect(load('[a, b]: 1\n', { schema: FAILSAFE_SCHEMA })).toEqual({ 'a,b': '1' });
    const slow = exact('[a, b]: 1\n');
    expect(slow !== 'error' && Object.keys(slow.value as object)).not.toEqual(['a,b']);
    expect((exact('%YAML 1.1\n---\nv: yes\n') as { value: unknown }).value).toEqual({ v: true });
    expect(load('~: x\n')).toEqual({ null: 'x' });
    expect((exact('~: x\n') as { value: unknown }).value).toEqual({ '': 'x' });
  });

  it("needs its own schema: js-yaml 4's CORE_SCHEMA resolves YAML 1.1 numbers", () => {
    const withCore = (s: string) => (load(`v: ${s}\n`, { schema: CORE_SCHEMA }) as { v: unknown }).v;
    expect([withCore('0b101'), withCore('-0x1F'), withCore('+0x1F')]).toEqual([5, -31, 31]);
    expect([exact('v: 0b101\n'), exact('v: -0x1F\n')]).toEqual([{ value: { v: '0b101' } }, { value: { v: '-0x1F' } }]);
  });

  it('reads every shipped suite as yaml does', () => {
    const files = findSuiteFiles(['suites', 'tests/live/real-api.yaml', 'examples']);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const fast = fastParse(text);
      expect(fast.ok, file).toBe(true);
      expect(agrees(text), file).toBe(true);
    }
  });
});
