/**
 * MockReply -> Gemini streamGenerateContent. Every chunk is a whole
 * GenerateContentResponse: text in pieces, each function call whole in one
 * chunk (the API never streams a call's arguments in pieces), then a last
 * chunk with an empty text part, the `finishReason` and the full
 * `usageMetadata`; the earlier chunks carry the prompt count only. Two
 * framings, as the URL asks: `?alt=sse` is `data: {...}` + CRLF CRLF per
 * chunk; without it the chunks are elements of one JSON array written as
 * they come (`[{...}`, `,\r\n{...}`, `]`).
 */
import type { MockReply } from './engine.js';
import { candidateObject, geminiCandidate, geminiUsage, PROMPT_BLOCKED, promptBlockedResponse, type GeminiEncodeOptions } from './encode-gemini.js';
import { geminiStatusName } from './gemini-errors.js';
import { pieces, TEXT_PIECE } from './sse-frame.js';

export type GeminiFraming = 'sse' | 'json_array';

function frame(json: unknown, framing: GeminiFraming, index: number): string {
  const text = JSON.stringify(json);
  return framing === 'sse' ? `data: ${text}\r\n\r\n` : `${index === 0 ? '[' : ',\r\n'}${text}`;
}

export function encodeGeminiStream(reply: MockReply, options: GeminiEncodeOptions, framing: GeminiFraming): string[] {
  const common = { modelVersion: options.model, responseId: options.responseId };
  const chunks: unknown[] = [];
  if (reply.stopReason === PROMPT_BLOCKED) chunks.push(promptBlockedResponse(reply, options));
  else {
    const said = geminiCandidate(reply);
    const early = { promptTokenCount: reply.usage.input_tokens + reply.usage.cache_read_tokens, totalTokenCount: reply.usage.input_tokens + reply.usage.cache_read_tokens };
    if (said.text !== '') for (const text of pieces(said.text, TEXT_PIECE)) chunks.push({ candidates: [candidateObject([{ text }], null)], usageMetadata: early, ...common });
    for (const call of said.calls) chunks.push({ candidates: [candidateObject([call], null)], usageMetadata: early, ...common });
    // No finish reason: the stream ends after the content, with no closing chunk (a gateway that dropped it).
    if (said.finishReason !== null || said.finishMessage !== undefined) {
      chunks.push({ candidates: [candidateObject([{ text: '' }], said.finishReason, said.finishMessage)], usageMetadata: geminiUsage(reply), ...common });
    }
  }
  const frames = chunks.map((c, i) => frame(c, framing, i));
  if (framing === 'json_array') frames.push(frames.length === 0 ? '[]' : ']');
  return frames;
}

const STATUS_OF_TYPE: Readonly<Record<string, [number, string]>> = {
  overloaded_error: [503, 'UNAVAILABLE'],
  rate_limit_error: [429, 'RESOURCE_EXHAUSTED'],
  rate_limit_exceeded: [429, 'RESOURCE_EXHAUSTED'],
  api_error: [500, 'INTERNAL'],
  server_error: [500, 'INTERNAL'],
  invalid_request_error: [400, 'INVALID_ARGUMENT'],
};

/** The HTTP code and status name an error type means on this wire (the other wires' type names are understood too). */
export function geminiErrorCode(type: string): { code: number; status: string } {
  const known = Object.hasOwn(STATUS_OF_TYPE, type) ? (STATUS_OF_TYPE[type] as [number, string]) : null;
  if (known) return { code: known[0], status: known[1] };
  const codes: Record<string, number> = { UNAVAILABLE: 503, RESOURCE_EXHAUSTED: 429, INTERNAL: 500, INVALID_ARGUMENT: 400, DEADLINE_EXCEEDED: 504 };
  const status = geminiStatusName(500, type);
  return { code: codes[status] ?? 500, status };
}

/** The in-stream error element (an `error` object where a chunk would be), in the stream's framing; `index` is its place among the elements. */
export function geminiStreamError(type: string, message: string, framing: GeminiFraming, index: number): string {
  const { code, status } = geminiErrorCode(type);
  const body = { error: { code, message, status } };
  return framing === 'sse' ? `data: ${JSON.stringify(body)}\r\n\r\n` : `${index === 0 ? '[' : ',\r\n'}${JSON.stringify(body)}]`;
}
