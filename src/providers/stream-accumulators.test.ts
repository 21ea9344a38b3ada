/** The streaming accumulators on hand-written wire events (shapes from the providers' streaming docs). */
import { describe, expect, it } from 'vitest';
import { AnthropicStreamAccumulator } from './anthropic-stream.js';
import { OpenAIStreamAccumulator } from './openai-stream.js';
import { ModelCallError, type ToolUseBlock } from './types.js';

const a = (event: string, data: Record<string, unknown>) => ({ event, data: JSON.stringify({ type: event, ...data }) });
const start = a('message_start', { message: { id: 'msg_1', content: [], stop_reason: null, usage: { input_tokens: 25, output_tokens: 1, cache_read_input_tokens: 7 } } });
const toolStart = (index: number, id: string) => a('content_block_start', { index, content_block: { type: 'tool_use', id, name: 'read', input: {} } });
const json = (index: number, partial_json: string) => a('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
const stop = (index: number) => a('content_block_stop', { index });
const ping = { event: 'ping', data: '{"type": "ping"}' };
const delta = (stop_reason: string | null) => a('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 89 } });
const end = a('message_stop', {});

describe('the Anthropic stream accumulator', () => {
  it('reports each tool_use at its block stop, not before, and ignores pings anywhere', () => {
    const seen: string[] = [];
    const acc = new AnthropicStreamAccumulator(0, () => 5, { onToolUse: (b) => seen.push(b.id) });
    for (const m of [start, ping, toolStart(0, 'toolu_1'), json(0, ''), json(0, '{"file_pa'), ping, json(0, 'th": "a.ts"}')]) acc.feed(m);
    expect(seen).toEqual([]);
    acc.feed(stop(0));
    expect(seen).toEqual(['toolu_1']);
    for (const m of [toolStart(1, 'toolu_2'), stop(1), delta('tool_use'), end]) acc.feed(m);
    const response = acc.finish();
    expect(response.content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { file_path: 'a.ts' } },
      // No partial_json at all is a tool without input: `{}`, not an empty-arguments fault.
      { type: 'tool_use', id: 'toolu_2', name: 'read', input: {} },
    ]);
    expect(response).toMatchObject({ stopReason: 'tool_use', stopClass: 'tool_use', ttftMs: 5, usage: { input_tokens: 25, output_tokens: 89, cache_read_tokens: 7 } });
  });

  it('never reports a tool_use whose JSON was cut, and flags it in the response', () => {
    const seen: ToolUseBlock[] = [];
    const acc = new AnthropicStreamAccumulator(0, () => 0, { onToolUse: (b) => seen.push(b) });
    for (const m of [start, toolStart(0, 't'), json(0, '{"content": "half a str'), stop(0), delta('max_tokens'), end]) acc.feed(m);
    expect(seen).toEqual([]);
    expect(acc.finish()).toMatchObject({ stopClass: 'max_tokens', content: [{ input: {}, inputError: { reason: 'malformed' } }] });
  });

  it('is stream_interrupted when the stream ends before message_stop', () => {
    const acc = new AnthropicStreamAccumulator(0, () => 0);
    for (const m of [start, toolStart(0, 't'), json(0, '{}'), stop(0), delta('tool_use')]) acc.feed(m);
    expect(() => acc.finish()).toThrow(expect.objectContaining({ kind: 'stream_interrupted', retryable: true }));
  });

  it('classifies an error event by its error type', () => {
    const acc = new AnthropicStreamAccumulator(0, () => 0);
    acc.feed(start);
    const overloaded = { event: 'error', data: '{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}' };
    expect(() => acc.feed(overloaded)).toThrow(expect.objectContaining({ kind: 'overloaded', retryable: true, status: null }));
    const invalid = { event: 'error', data: '{"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}' };
    expect(() => new AnthropicStreamAccumulator(0, () => 0).feed(invalid)).toThrow(expect.objectContaining({ kind: 'invalid_request', retryable: false }));
  });
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  event: null,
  data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] }),
});
const call = (index: number, fields: Record<string, unknown>) => chunk({ tool_calls: [{ index, ...fields }] });
const done = { event: null, data: '[DONE]' };

describe('the OpenAI stream accumulator', () => {
  it('buckets interleaved argument deltas by index and reports calls only when finish_reason arrives', () => {
    const seen: string[] = [];
    const acc = new OpenAIStreamAccumulator(0, () => 3, { onToolUse: (b) => seen.push(b.id) });
    const events = [
      chunk({ role: 'assistant', content: '' }),
      call(0, { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"file_' } }),
      call(1, { id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"file_path"' } }),
      call(0, { function: { arguments: 'path": "a"}' } }),
      call(1, { function: { arguments: ': "b"}' } }),
    ];
    for (const m of events) acc.feed(m);
    expect(seen).toEqual([]);
    acc.feed(chunk({}, 'tool_calls'));
    expect(seen).toEqual(['call_a', 'call_b']);
    acc.feed({ event: null, data: JSON.stringify({ id: 'c', choices: [], usage: { prompt_tokens: 30, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 10 } } }) });
    acc.feed(done);
    expect(acc.finish()).toMatchObject({
      content: [
        { id: 'call_a', input: { file_path: 'a' } },
        { id: 'call_b', input: { file_path: 'b' } },
      ],
      stopClass: 'tool_use',
      ttftMs: 3,
      usage: { input_tokens: 20, cache_read_tokens: 10, output_tokens: 9 },
    });
  });

  it('reports nothing for a turn cut by length, and flags the broken arguments', () => {
    const seen: string[] = [];
    const acc = new OpenAIStreamAccumulator(0, () => 0, { onToolUse: (b) => seen.push(b.id) });
    for (const m of [call(0, { id: 'x', function: { name: 'write', arguments: '{"content": "cut' } }), chunk({}, 'length'), done]) acc.feed(m);
    expect(seen).toEqual([]);
    expect(acc.finish()).toMatchObject({ stopReason: 'length', stopClass: 'max_tokens', content: [{ inputError: { reason: 'malformed' } }] });
  });

  it('tells a null finish_reason (clean end) from a cut stream (no [DONE])', () => {
    const clean = new OpenAIStreamAccumulator(0, () => 0);
    for (const m of [chunk({ content: 'hi' }), chunk({}), done]) clean.feed(m);
    expect(clean.finish()).toMatchObject({ stopReason: null, stopClass: 'null' });
    const cut = new OpenAIStreamAccumulator(0, () => 0);
    for (const m of [chunk({ content: 'hi' }), chunk({}, 'stop')]) cut.feed(m);
    expect(() => cut.finish()).toThrow(ModelCallError);
  });

  it('turns an error chunk into a classified error', () => {
    const acc = new OpenAIStreamAccumulator(0, () => 0);
    const error = { event: null, data: '{"error": {"message": "The server had an error", "type": "server_error", "param": null, "code": null}}' };
    expect(() => acc.feed(error)).toThrow(expect.objectContaining({ kind: 'server_error', retryable: true }));
  });
});
