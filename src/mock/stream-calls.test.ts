/** The fault position `inside_tool_input` lands inside the last call's arguments on every wire, before the finish reason. */
import { describe, expect, it } from 'vitest';
import type { MockReply } from './engine.js';
import { encodeAnthropicStream } from './encode-anthropic-sse.js';
import { encodeOpenAIStream } from './encode-openai-sse.js';
import { encodeResponsesStream } from './encode-responses-sse.js';
import { applyFault } from './fault-reply.js';
import { framesInsideLastCall, streamedCalls } from './stream-calls.js';
import type { Wire } from './wire-errors.js';

const reply: MockReply = {
  turn: 1,
  content: [
    { type: 'tool_use', id: 'c1', name: 'read', input: { path: 'a.txt' } },
    { type: 'tool_use', id: 'c2', name: 'read', input: { path: 'b-with-a-long-name-so-the-cut-lands-inside.txt' } },
  ],
  stopReason: 'tool_use',
  usage: { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 },
  cutToolInput: false,
  fault: null,
};

const frames: Record<Exclude<Wire, 'gemini'>, string[]> = {
  anthropic: encodeAnthropicStream(reply, { model: 'm', id: 'msg' }),
  openai: encodeOpenAIStream(reply, { model: 'm', id: 'chatcmpl', created: 0, includeUsage: false }),
  responses: encodeResponsesStream(reply, { model: 'm', id: 'resp', createdAt: 0, previousResponseId: null, store: true }),
};
/** The frame that ends the reply's calls on each wire (nothing of it may go out before a cut inside the arguments). */
const finish: Record<Exclude<Wire, 'gemini'>, RegExp> = { anthropic: /message_delta/, openai: /"finish_reason":"tool_calls"/, responses: /"type":"response\.function_call_arguments\.done"[^\n]*"output_index":1/ };

describe('inside_tool_input', () => {
  it.each(['anthropic', 'openai', 'responses'] as const)('cuts the %s stream inside the last call, before its arguments are whole and before the finish reason', (wire) => {
    const n = framesInsideLastCall(wire, frames[wire])!;
    expect(n).toBeGreaterThan(0);
    const sent = frames[wire].slice(0, n);
    expect(sent.some((f) => finish[wire].test(f))).toBe(false);
    const calls = streamedCalls(wire, frames[wire], n);
    expect(calls.map((c) => c.id)).toEqual(['c1', 'c2']);
    const last = calls[1]!;
    expect(last.seen).toBe(true);
    expect(last.whole).toBe(false);
    expect(last.received.length).toBeGreaterThan(0);
    expect(last.full.startsWith(last.received)).toBe(true);
    expect(streamedCalls(wire, frames[wire], frames[wire].length).every((c) => c.whole)).toBe(true);
  });

  it('puts the SSE error frame there too, on every wire', () => {
    for (const wire of ['anthropic', 'openai', 'responses'] as const) {
      const normal = { status: 200, headers: {}, body: frames[wire].join(''), chunks: frames[wire] };
      const { reply: out } = applyFault(wire, { sse_error: { after_events: 'inside_tool_input' } }, normal, true);
      const chunks = out.chunks!;
      expect(chunks.length).toBe(framesInsideLastCall(wire, frames[wire])! + 1);
      expect(chunks.slice(0, -1).some((f) => finish[wire].test(f))).toBe(false);
    }
  });
});
