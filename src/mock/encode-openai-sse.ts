/**
 * MockReply -> OpenAI Chat Completions SSE: `chat.completion.chunk` deltas and a
 * final `data: [DONE]`. Tool-call deltas arrive interleaved by `index` (every
 * call's first chunk with id and name, then argument pieces round-robin), the
 * hard case a client must bucket by index (docs/harness-rules.md#streaming-execution). Reuses the JSON
 * encoder's `openaiToolCalls` / `openaiFinishReason`.
 */
import type { MockReply } from './engine.js';
import { encodeOpenAICompletion, openaiFinishReason, openaiToolCalls, type EncodeOptions } from './encode-openai.js';
import { ARGUMENT_PIECE, pieces, sseFrame, TEXT_PIECE } from './sse-frame.js';

export interface StreamEncodeOptions extends EncodeOptions {
  /** `stream_options.include_usage`: a last chunk with empty choices and the usage; other chunks say `usage: null`. */
  includeUsage: boolean;
}

export function encodeOpenAIStream(reply: MockReply, options: StreamEncodeOptions): string[] {
  const full = encodeOpenAICompletion(reply, options);
  const base = { id: options.id, object: 'chat.completion.chunk', created: options.created, model: options.model, service_tier: 'default', system_fingerprint: null };
  const usageField = options.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sseFrame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...usageField });
  const frames: string[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  if (text !== '') for (const content of pieces(text, TEXT_PIECE)) frames.push(chunk({ content }));
  const calls = openaiToolCalls(reply);
  const argPieces = calls.map((c) => pieces(c.function.arguments, ARGUMENT_PIECE));
  calls.forEach((call, index) => {
    const first = { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: argPieces[index]?.[0] ?? '' } };
    frames.push(chunk({ tool_calls: [first] }));
  });
  const rounds = Math.max(0, ...argPieces.map((p) => p.length));
  for (let round = 1; round < rounds; round++) {
    argPieces.forEach((p, index) => {
      const piece = p[round];
      if (piece !== undefined) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  frames.push(chunk({}, openaiFinishReason(reply.stopReason)));
  if (options.includeUsage) frames.push(sseFrame({ ...base, choices: [], usage: full['usage'] }));
  frames.push(sseFrame('[DONE]'));
  return frames;
}

/** The in-stream error chunk (a `data:` line with an `error` object), as the API and SDK know it. */
export function openaiStreamError(type: string, message: string): string {
  return sseFrame({ error: { message, type, param: null, code: null } });
}
