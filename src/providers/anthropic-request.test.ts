import { describe, expect, it } from 'vitest';
import { AnthropicRequestBuilder } from './anthropic-request.js';
import { toAnthropicParams } from './anthropic-mapping.js';
import type { Message, ModelRequest, ToolDefinition } from './types.js';

const frozen = <T>(value: T): T => Object.freeze(value);
const tools = (): ToolDefinition[] => [
  { name: 'read', description: 'Read a file.', input_schema: frozen({ type: 'object', properties: { file_path: frozen({ type: 'string' }) }, required: frozen(['file_path']) }) },
  { name: 'mcp__x__y', description: 'Outside “schema” é', input_schema: frozen({ type: 'object', properties: frozen({}) }), strict: false },
];

function history(): Message[] {
  return [
    { role: 'user', content: [{ type: 'text', text: 'read a.txt — “quoted” \u2028 \ud83d\ude00 \n\t"' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { file_path: 'a.txt', n: 1.5e-7 } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'alpha\u0000\u001f\\ ü', is_error: false }] },
    { role: 'assistant', content: [] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: '', is_error: true }, { type: 'text', text: '<reminder>' }] },
  ];
}

/** What the adapter sent before the builder: the reference translation, serialized whole. */
function reference(request: ModelRequest, strict: boolean, promptCache: boolean, stream: boolean) {
  const params = toAnthropicParams('claude-x', request, { strict }, promptCache);
  const sent = stream ? { ...params, stream: true } : params;
  const bare = toAnthropicParams('claude-x', { ...request, messages: [] }, { strict }, false).tools;
  return { params, requestBytes: Buffer.byteLength(JSON.stringify(sent)), toolsBytes: bare === undefined ? 0 : Buffer.byteLength(JSON.stringify(bare)) };
}

const variants = [false, true].flatMap((strict) => [false, true].flatMap((promptCache) => [false, true].map((stream) => ({ strict, promptCache, stream }))));

describe('AnthropicRequestBuilder', () => {
  for (const { strict, promptCache, stream } of variants) {
    it(`builds the reference body and measures it byte for byte as the session grows (strict ${strict}, cache ${promptCache}, stream ${stream})`, () => {
      const builder = new AnthropicRequestBuilder('claude-x', { strict }, promptCache);
      const all = history();
      const definitions = tools();
      for (const system of [undefined, '', 'You are careful. ✓']) {
        for (const toolSet of [definitions, []]) {
          for (let n = 0; n <= all.length; n++) {
            // The same message objects again on every turn, as the loop sends them.
            const request: ModelRequest = { system, messages: all.slice(0, n), tools: toolSet, maxTokens: 4096 };
            const want = reference(request, strict, promptCache, stream);
            expect(builder.sizes(request, stream)).toEqual({ requestBytes: want.requestBytes, toolsBytes: want.toolsBytes });
            expect(JSON.stringify(builder.params(request))).toBe(JSON.stringify(want.params));
          }
        }
      }
    });
  }

  it('measures a block edited in place, a content array replaced or grown, and tools changed in place anew', () => {
    const builder = new AnthropicRequestBuilder('claude-x', {}, true);
    const messages = history();
    const definitions = tools();
    const request: ModelRequest = { system: 's', messages, tools: definitions, maxTokens: 10 };
    const check = () => {
      const want = reference(request, false, true, false);
      expect(builder.sizes(request, false)).toEqual({ requestBytes: want.requestBytes, toolsBytes: want.toolsBytes });
      expect(JSON.stringify(builder.params(request))).toBe(JSON.stringify(want.params));
    };
    check();
    const first = messages[0]!.content[0]!;
    if (first.type === 'text') first.text = 'a longer text than before, ünïcode';
    check();
    const result = messages[2]!.content[0]!;
    if (result.type === 'tool_result') Object.assign(result, { content: '[compacted: 5 bytes]', is_error: true });
    check();
    const use = messages[1]!.content[1]!;
    if (use.type === 'tool_use') use.input = { file_path: 'b.txt' };
    check();
    messages[4]!.content.push({ type: 'text', text: 'announced' });
    check();
    messages[4]!.content = [{ type: 'text', text: 'replaced' }];
    check();
    definitions.push({ name: 'write', description: 'Write.', input_schema: frozen({ type: 'object' }) });
    check();
    definitions[0] = { ...definitions[0]!, description: 'Read, differently.' };
    check();
    definitions[1]!.description = 'edited in place';
    check();
    request.maxTokens = 12345;
    check();
    // Compaction drops whole turns: every later block moves to another position.
    messages.splice(1, 2);
    check();
    messages.unshift({ role: 'user', content: [{ type: 'text', text: 'a note put first' }] });
    check();
    request.messages = [...messages.slice(0, 2), { role: 'assistant', content: [{ type: 'text', text: 'new' }] }];
    check();
  });

  it('gives each model its own body when models of different options and tools of one name share blocks, arrays and schemas', () => {
    const messages = history();
    const definitions = tools();
    const renamed = definitions.map((t) => ({ ...t, description: `${t.description} (other server)` }));
    const builders = variants.map(({ strict, promptCache, stream }) => ({ strict, promptCache, stream, builder: new AnthropicRequestBuilder(strict ? 'claude-strict' : 'claude-x', { strict }, promptCache) }));
    for (let round = 0; round < 2; round++) {
      for (const toolSet of [definitions, renamed]) {
        for (const { strict, promptCache, stream, builder } of builders) {
          const request: ModelRequest = { system: round === 0 ? undefined : 'sys', messages, tools: toolSet, maxTokens: 100 };
          const params = toAnthropicParams(strict ? 'claude-strict' : 'claude-x', request, { strict }, promptCache);
          const sent = stream ? { ...params, stream: true } : params;
          expect(builder.sizes(request, stream).requestBytes).toBe(Buffer.byteLength(JSON.stringify(sent)));
          expect(JSON.stringify(builder.params(request))).toBe(JSON.stringify(params));
        }
      }
    }
  });

  it("takes another session's translation of the same definitions, and translates them anew once one changed", () => {
    const shared = tools();
    const bodyOf = (definitions: ToolDefinition[]) => {
      const builder = new AnthropicRequestBuilder('claude-x', {}, false);
      const request: ModelRequest = { messages: history().slice(0, 1), tools: definitions, maxTokens: 10 };
      const want = reference(request, false, false, false);
      expect(builder.sizes(request, false)).toEqual({ requestBytes: want.requestBytes, toolsBytes: want.toolsBytes });
      const params = builder.params(request);
      expect(JSON.stringify(params)).toBe(JSON.stringify(want.params));
      return params.tools!;
    };
    const first = bodyOf([...shared]);
    // Each session has its own array of the shared definitions: the translated tools are the first session's.
    const second = bodyOf([...shared]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    shared[0] = { ...shared[0]!, description: 'Read, as another server says it.' };
    const third = bodyOf([...shared]);
    expect(third[0]).not.toBe(first[0]);
    shared[1]!.description = 'edited in place';
    expect(bodyOf([...shared])[1]).not.toBe(third[1]);
  });

  it('translates a schema that is not frozen on every request, as the dialect layer does', () => {
    const builder = new AnthropicRequestBuilder('claude-x', {}, false);
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    const request: ModelRequest = { messages: [], tools: [{ name: 't', description: 'd', input_schema: schema }], maxTokens: 1 };
    const before = builder.sizes(request, false).requestBytes;
    schema['properties'] = { a_new_property: { type: 'string' } };
    const want = reference(request, false, false, false);
    expect(builder.sizes(request, false).requestBytes).toBe(want.requestBytes);
    expect(want.requestBytes).toBeGreaterThan(before);
  });
});
