/**
 * The SSE encoders agree with the JSON encoders: a reply streamed and read back
 * by the adapters' accumulators equals the same reply sent as JSON and mapped,
 * on both wires (cut tool input and raw arguments included).
 */
import { describe, expect, it } from 'vitest';
import { AnthropicStreamAccumulator } from '../providers/anthropic-stream.js';
import { fromAnthropicMessage } from '../providers/anthropic-mapping.js';
import { fromOpenAICompletion } from '../providers/openai-mapping.js';
import { OpenAIStreamAccumulator } from '../providers/openai-stream.js';
import { readSse } from '../providers/sse-reader.js';
import type { ToolUseBlock } from '../providers/types.js';
import { encodeAnthropicMessage } from './encode-anthropic.js';
import { encodeAnthropicStream } from './encode-anthropic-sse.js';
import { encodeOpenAICompletion } from './encode-openai.js';
import { encodeOpenAIStream } from './encode-openai-sse.js';
import type { MockReply } from './engine.js';

const usage = { input_tokens: 10, output_tokens: 2, cache_read_tokens: 5, cache_write_tokens: 0 };
const reply = (over: Partial<MockReply> = {}): MockReply => ({
  turn: 1,
  content: [
    { type: 'text', text: 'Reading the three files you asked about now.' },
    { type: 'tool_use', id: 'c1', name: 'read', input: { file_path: 'a-rather-long-file-name.txt' } },
    { type: 'tool_use', id: 'c2', name: 'read', input: { file_path: 'b.txt', limit: 5 } },
  ],
  stopReason: 'tool_use',
  usage,
  cutToolInput: false,
  fault: null,
  ...over,
});

/** Feed frames through the real SSE reader, split at awkward byte offsets. */
async function accumulate<T extends { feed(m: { event: string | null; data: string }): void }>(frames: string[], acc: T): Promise<T> {
  const bytes = new TextEncoder().encode(frames.join(''));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
      controller.close();
    },
  });
  for await (const message of readSse(body)) acc.feed(message);
  return acc;
}

const cases: Array<[string, Partial<MockReply>]> = [
  ['text and two tool calls', {}],
  ['a cut last tool call (max_tokens)', { cutToolInput: true, stopReason: 'max_tokens' }],
  ['malformed raw arguments', { content: [{ type: 'tool_use', id: 'c1', name: 'read', input: {}, rawArguments: '{"file_path": "x' }] }],
  ['a null stop reason', { stopReason: null }],
  ['an unknown stop reason', { stopReason: 'brand_new_reason' }],
];

describe.each(cases)('streamed %s', (_name, over) => {
  const r = reply(over);
  it('reads back on the OpenAI wire exactly as the JSON completion maps', async () => {
    const options = { model: 'm', id: 'x', created: 1 };
    const acc = await accumulate(encodeOpenAIStream(r, { ...options, includeUsage: true }), new OpenAIStreamAccumulator(0, () => 1));
    expect(acc.finish()).toEqual({ ...fromOpenAICompletion(encodeOpenAICompletion(r, options) as never), ttftMs: 1 });
  });

  it('reads back on the Anthropic wire like the JSON message, except cut input is flagged instead of guessed', async () => {
    const options = { model: 'm', id: 'x' };
    const streamed = (await accumulate(encodeAnthropicStream(r, options), new AnthropicStreamAccumulator(0, () => 1))).finish();
    const json = fromAnthropicMessage(encodeAnthropicMessage(r, options) as never);
    expect({ ...streamed, content: streamed.content.map((b) => (b.type === 'tool_use' && b.inputError ? { ...b, input: 'cut', inputError: undefined } : b)) }).toEqual({
      ...json,
      content: json.content.map((b, i) => (b.type === 'tool_use' && streamed.content[i]?.type === 'tool_use' && (streamed.content[i] as ToolUseBlock).inputError ? { ...b, input: 'cut', inputError: undefined } : b)),
      ttftMs: 1,
    });
  });
});

describe('the OpenAI stream encoder', () => {
  it('interleaves the argument deltas of parallel calls by index', () => {
    const frames = encodeOpenAIStream(reply(), { model: 'm', id: 'x', created: 1, includeUsage: false });
    const indices = frames
      .filter((f) => f.includes('"tool_calls":['))
      .map((f) => (JSON.parse(f.slice(6)) as { choices: Array<{ delta: { tool_calls: Array<{ index: number }> } }> }).choices[0]?.delta.tool_calls[0]?.index);
    expect(indices.slice(0, 4)).toEqual([0, 1, 0, 1]);
  });
});
