/**
 * What really leaves the process: the official SDK clients build and send the
 * request, a capturing fetch keeps the body, and the body is searched for
 * `$schema` at any depth (docs/harness-rules.md#dialect-per-provider: it is never rejected, so only looking
 * at the wire finds it).
 */
import { describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../src/providers/anthropic.js';
import { OpenAIModel } from '../../src/providers/openai.js';
import type { Model, ModelRequest } from '../../src/providers/types.js';
import { nestedJsonSchema } from './nested-schema.js';

const ANTHROPIC_REPLY = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
const OPENAI_REPLY = { id: 'c1', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };

function capturing(reply: unknown): { fetch: typeof fetch; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fake: typeof fetch = async (_input, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fake, bodies };
}

/** Every object key anywhere in a JSON value. */
function keysDeep(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysDeep(v, out);
    }
  }
  return out;
}

const request: ModelRequest = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'patch it' }] }],
  maxTokens: 64,
  tools: [
    { name: 'patch', description: 'Patch a file.', input_schema: nestedJsonSchema() },
    {
      name: 'external',
      description: 'An MCP-style schema with $schema nested in $defs.',
      input_schema: { type: 'object', $defs: { P: { $schema: 'https://json-schema.org/draft-07/schema#', type: 'string' } }, properties: { p: { $ref: '#/$defs/P' } } },
    },
  ],
};

const cases: Array<[string, (f: typeof fetch, strict: boolean) => Model, unknown, (body: any) => unknown[]]> = [
  // `any`: the captured body is raw JSON; the getters pick the tools list of each wire.
  ['anthropic', (f, strict) => new AnthropicModel({ model: 'm', apiKey: 'test', fetch: f, strictTools: strict }), ANTHROPIC_REPLY, (b) => b.tools],
  ['openai', (f, strict) => new OpenAIModel({ model: 'm', apiKey: 'test', fetch: f, strictTools: strict }), OPENAI_REPLY, (b) => b.tools.map((t: any) => t.function)],
];

describe('the request body the SDK sends', () => {
  for (const [wire, make, reply, toolsOf] of cases) {
    for (const strict of [false, true]) {
      it(`carries no $schema key at any depth on the ${wire} wire (strict ${strict})`, async () => {
        const cap = capturing(reply);
        const model = make(cap.fetch, strict);
        await model.complete(request);
        expect(cap.bodies).toHaveLength(1);
        expect(keysDeep(cap.bodies[0])).not.toContain('$schema');
        const tools = toolsOf(cap.bodies[0]) as Array<Record<string, unknown>>;
        expect(tools).toHaveLength(2);
        for (const tool of tools) expect(tool['strict']).toBe(strict ? true : undefined);
      });
    }

    it(`is measured by describeRequest exactly as sent on the ${wire} wire`, async () => {
      const cap = capturing(reply);
      const model = make(cap.fetch, true);
      const info = model.describeRequest(request);
      await model.complete(request);
      expect(info.requestBytes).toBe(Buffer.byteLength(JSON.stringify(cap.bodies[0]), 'utf8'));
    });
  }
});
