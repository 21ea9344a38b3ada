import { afterEach, describe, expect, it } from 'vitest';
import { forgetKnownTools, parseBody } from './parse-body.js';

const TOOLS = [
  { name: 'read', description: 'Reads a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
  { name: 'edit', description: 'Edits "a" file', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
];

/** What JSON.parse gives, compared with the member order (toEqual ignores it). */
function expectSameAsJsonParse(text: string): unknown {
  const got = parseBody(text);
  let want: unknown;
  try {
    want = JSON.parse(text);
  } catch {
    expect(got).toEqual({ ok: false });
    return undefined;
  }
  expect(got.ok).toBe(true);
  const value = (got as { value: unknown }).value;
  expect(value).toEqual(want);
  expect(JSON.stringify(value)).toBe(JSON.stringify(want));
  return value;
}

/** Sends `text` three times: learned, then parsed with the remembered definitions. */
function thrice(text: string): unknown[] {
  return [expectSameAsJsonParse(text), expectSameAsJsonParse(text), expectSameAsJsonParse(text)];
}

afterEach(() => forgetKnownTools());

describe('parseBody', () => {
  it('reuses the definitions of an earlier body, frozen, and gives what JSON.parse gives', () => {
    const body = (n: number, stream: boolean) =>
      JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: `hi ${n}` }], system: 's', tools: TOOLS, ...(stream ? { stream: true } : {}) });
    expectSameAsJsonParse(body(1, false));
    const a = expectSameAsJsonParse(body(2, false)) as { tools: unknown[] };
    // One parsed array for both: the definitions were not parsed again.
    expect((expectSameAsJsonParse(body(3, false)) as { tools: unknown[] }).tools).toBe(a.tools);
    expectSameAsJsonParse(body(4, true));
    const b = expectSameAsJsonParse(body(5, true)) as { tools: unknown[]; messages: unknown[] };
    expect(Object.keys(b)).toEqual(['model', 'max_tokens', 'messages', 'system', 'tools', 'stream']);
    expect((expectSameAsJsonParse(body(6, true)) as { tools: unknown[] }).tools).toBe(b.tools);
    expect(Object.isFrozen(a.tools) && Object.isFrozen(a.tools[0]) && Object.isFrozen((a.tools[0] as { input_schema: object }).input_schema)).toBe(true);
    expect(() => {
      (a.tools[0] as { name: string }).name = 'x';
    }).toThrow(TypeError);
    // The rest of the body is the request's own, as mutable as JSON.parse makes it.
    expect(Object.isFrozen(b.messages)).toBe(false);
  });

  it('gives what JSON.parse gives for bodies built to fool a suffix match', () => {
    const tools = JSON.stringify(TOOLS);
    const tail = `,"tools":${tools}`;
    const cases = [
      `{"model":"m"${tail}}`,
      // The same tail nested in a member, inside a string, after `{`, after a dangling comma, after a key.
      `{"model":"m","x":{"a":1${tail}}}`,
      `{"model":"m","x":[{"a":1${tail}}]}`,
      `{"model":"m","x":"${tail.replace(/"/g, '\\"')}"}`,
      `{${tail.slice(1)}}`,
      `{${tail}}`,
      `{"model":"m",${tail}}`,
      `{"model":${tail}}`,
      `{"model":"m${tail}}`,
      // A `tools` member before the last one (the last occurrence's value wins at the first one's place).
      `{"tools":[],"model":"m"${tail}}`,
      `{"tools":[],"model":"m"${tail},"stream":true}`,
      // `stream` twice, and alone with the definitions.
      `{"stream":false,"model":"m"${tail},"stream":true}`,
      `{${tail.slice(1)},"stream":true}`,
      `{"stream":true${tail},"stream":true}`,
      // A `__proto__` member stays a member.
      `{"__proto__":{"polluted":1},"model":"m"${tail},"stream":true}`,
      `{"__proto__":{"polluted":1},"model":"m"${tail}}`,
      // Members after the definitions (the OpenAI and Gemini SDKs'), duplicated before them, or holding another `tools`.
      `{"model":"m"${tail},"stream":true,"stream_options":{"include_usage":true}}`,
      `{"contents":[]${tail},"generationConfig":{"maxOutputTokens":4096}}`,
      `{"model":"m","s":2${tail},"s":3,"x":1}`,
      `{"model":"m"${tail},"x":{"tools":[]}}`,
      `{"model":"m"${tail},"tools":[]}`,
      `{"model":"m"${tail},"__proto__":{"polluted":1}}`,
      `{"model":"m"${tail},}`,
      `{"model":"m"${tail},"x":1}}`,
      `{"model":"m"${tail}]}`,
      // Whitespace, and not an object at all.
      `{ "model" : "m" ${tail} }`,
      `[1${tail}]`,
      `{"model":"m"${tail}} `,
      `{"model":"m"${tail}}}`,
      `"x${tail}}`,
    ];
    for (const text of cases) thrice(text);
    for (const text of cases) expectSameAsJsonParse(text);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it('is JSON.parse for definitions that are not an array, bodies without them and invalid JSON', () => {
    for (const text of [`{"model":"m","tools":{"a":1}}`, `{"model":"m","tools":[1,}`, `{"model":"m"}`, '', 'nope', `{"model":"m","tools":[]}`, `{"model":"m","tools":[]`]) thrice(text);
  });
});
