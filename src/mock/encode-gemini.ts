/**
 * MockReply -> Gemini GenerateContentResponse (field names as the API and
 * @google/genai spell them): one candidate whose `content` (role `model`)
 * holds text parts then `functionCall` parts (`id`, `name`, `args`), its
 * `finishReason`, and `usageMetadata` (`promptTokenCount`,
 * `candidatesTokenCount`, `totalTokenCount`, `cachedContentTokenCount`).
 *
 * Script stop reasons are Anthropic vocabulary: tool_use / end_turn ->
 * STOP (the API has no tool-call reason), max_tokens -> MAX_TOKENS, refusal
 * and content_filter -> SAFETY; `null` sends no finishReason; anything else
 * passes raw (so `MALFORMED_FUNCTION_CALL`, `RECITATION`, ... can be written
 * as the API spells them, and an unknown reason stays unknown).
 *
 * What this wire cannot carry becomes what the API sends instead:
 * - a call cut by max_tokens: the API never returns half a functionCall
 *   (args are a JSON object, not text), the cut call is simply absent;
 * - arguments that are not a JSON object (`raw_arguments`): the API answers
 *   MALFORMED_FUNCTION_CALL with a `finishMessage` and no calls; empty
 *   arguments are a call without `args`;
 * - a blocked answer (SAFETY and the other block reasons) carries no calls;
 * - `prompt_blocked`: the prompt itself was blocked: no candidates at all,
 *   `promptFeedback.blockReason` SAFETY.
 */
import type { MockReply, MockToolUse } from './engine.js';
import { isObject } from './json-shape.js';

export interface GeminiEncodeOptions {
  model: string;
  responseId: string;
}

const FINISH: Readonly<Record<string, string>> = {
  tool_use: 'STOP',
  end_turn: 'STOP',
  stop_sequence: 'STOP',
  max_tokens: 'MAX_TOKENS',
  refusal: 'SAFETY',
  content_filter: 'SAFETY',
};

/** finishReason values under which the API returns no function call. */
export const BLOCK_REASONS: ReadonlySet<string> = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

/** The script's stop reason meaning "the prompt was blocked": a response without candidates. */
export const PROMPT_BLOCKED = 'prompt_blocked';

export function geminiFinishReason(stopReason: string | null): string | null {
  if (stopReason === null) return null;
  return Object.hasOwn(FINISH, stopReason) ? (FINISH[stopReason] as string) : stopReason;
}

export type GeminiPart = Record<string, unknown>;

/** Arguments as this wire carries them: an object, none (empty text), or not expressible (null). */
function wireArgs(use: MockToolUse): Record<string, unknown> | undefined | null {
  if (use.rawArguments === undefined) return use.input;
  if (use.rawArguments.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(use.rawArguments);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** What the candidate says: text, the calls that go out, the finish reason and message. */
export function geminiCandidate(reply: MockReply): { text: string; calls: GeminiPart[]; finishReason: string | null; finishMessage?: string } {
  const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  let uses = reply.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
  if (reply.cutToolInput) uses = uses.slice(0, -1);
  let finishReason = geminiFinishReason(reply.stopReason);
  if (finishReason !== null && BLOCK_REASONS.has(finishReason)) return { text, calls: [], finishReason };
  const malformed = uses.find((u) => wireArgs(u) === null);
  if (malformed) return { text, calls: [], finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: `Malformed function call: ${malformed.name}(${malformed.rawArguments ?? ''})` };
  if (finishReason === 'MALFORMED_FUNCTION_CALL') return { text, calls: [], finishReason, finishMessage: 'Malformed function call.' };
  const calls = uses.map((use) => {
    const args = wireArgs(use);
    return { functionCall: { id: use.id, name: use.name, ...(args !== undefined ? { args } : {}) } };
  });
  return { text, calls, finishReason };
}

/**
 * The reply as this wire carries it, in the engine's terms: the calls that
 * go out (a cut, malformed or blocked one does not), the stop reason the API
 * gives instead, no cut left to make. What the mock records as said (the lab
 * reads the issued calls from it) is what the harness could have seen.
 */
export function geminiWireReply(reply: MockReply): MockReply {
  if (reply.stopReason === PROMPT_BLOCKED) return { ...reply, content: [], cutToolInput: false };
  const said = geminiCandidate(reply);
  const sent = new Set(said.calls.map((c) => (c['functionCall'] as { id: string }).id));
  const content = reply.content.filter((b) => b.type !== 'tool_use' || sent.has(b.id));
  const stopReason = said.finishReason === 'MALFORMED_FUNCTION_CALL' ? 'MALFORMED_FUNCTION_CALL' : reply.stopReason;
  return { ...reply, content, stopReason, cutToolInput: false };
}

export function geminiUsage(reply: MockReply, withCandidates = true): Record<string, unknown> {
  const { input_tokens, output_tokens, cache_read_tokens } = reply.usage;
  // The prompt count includes the cached part, reported again on its own.
  const prompt = input_tokens + cache_read_tokens;
  const usage: Record<string, unknown> = { promptTokenCount: prompt };
  if (withCandidates) usage['candidatesTokenCount'] = output_tokens;
  usage['totalTokenCount'] = prompt + (withCandidates ? output_tokens : 0);
  if (cache_read_tokens > 0) usage['cachedContentTokenCount'] = cache_read_tokens;
  usage['promptTokensDetails'] = [{ modality: 'TEXT', tokenCount: prompt }];
  return usage;
}

const SAFETY_RATINGS = [
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
  { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
];

/** The response for a blocked prompt: no candidates, only the feedback. */
export function promptBlockedResponse(reply: MockReply, options: GeminiEncodeOptions): Record<string, unknown> {
  return { promptFeedback: { blockReason: 'SAFETY', safetyRatings: SAFETY_RATINGS }, usageMetadata: geminiUsage(reply, false), modelVersion: options.model, responseId: options.responseId };
}

export function candidateObject(parts: GeminiPart[], finishReason: string | null, finishMessage?: string): Record<string, unknown> {
  const candidate: Record<string, unknown> = {};
  if (parts.length > 0) candidate['content'] = { parts, role: 'model' };
  if (finishReason !== null) candidate['finishReason'] = finishReason;
  if (finishMessage !== undefined) candidate['finishMessage'] = finishMessage;
  if (finishReason !== null && BLOCK_REASONS.has(finishReason)) candidate['safetyRatings'] = SAFETY_RATINGS;
  candidate['index'] = 0;
  return candidate;
}

export function encodeGeminiResponse(reply: MockReply, options: GeminiEncodeOptions): Record<string, unknown> {
  if (reply.stopReason === PROMPT_BLOCKED) return promptBlockedResponse(reply, options);
  const said = geminiCandidate(reply);
  const parts: GeminiPart[] = [...(said.text !== '' ? [{ text: said.text }] : []), ...said.calls];
  return { candidates: [candidateObject(parts, said.finishReason, said.finishMessage)], usageMetadata: geminiUsage(reply), modelVersion: options.model, responseId: options.responseId };
}
