/**
 * Classification of raw provider stop reasons (docs/harness-rules.md#stop-reasons). Whitelist style:
 * only reasons we know map to a class; anything else is `unknown` and a missing
 * reason is `null`, so the loop can fail closed on both (docs/harness-rules.md).
 */
import type { StopClass } from '../events/labels.js';

const ANTHROPIC: Readonly<Record<string, StopClass>> = {
  tool_use: 'tool_use',
  end_turn: 'end_turn',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  pause_turn: 'pause_turn',
  refusal: 'refusal',
  model_context_window_exceeded: 'context_window_exceeded',
};

const OPENAI: Readonly<Record<string, StopClass>> = {
  tool_calls: 'tool_use',
  stop: 'end_turn',
  length: 'max_tokens',
  content_filter: 'content_filter',
};

function classify(table: Readonly<Record<string, StopClass>>, raw: string | null | undefined): StopClass {
  if (raw === null || raw === undefined) return 'null';
  // Own-property lookup so names like `constructor` or `__proto__` stay unknown.
  return Object.hasOwn(table, raw) ? (table[raw] as StopClass) : 'unknown';
}

/** Anthropic `stop_reason` -> StopClass. */
export function classifyAnthropicStop(raw: string | null | undefined): StopClass {
  return classify(ANTHROPIC, raw);
}

/** OpenAI Chat Completions `finish_reason` -> StopClass. */
export function classifyOpenAIStop(raw: string | null | undefined): StopClass {
  return classify(OPENAI, raw);
}

/**
 * OpenAI Responses: there is no stop reason, only the response `status` and
 * `incomplete_details.reason`. The raw value the harness logs is the status,
 * or the incomplete reason when the status is `incomplete`. `completed` is a
 * tool-use turn when the output holds function calls, else an end turn.
 */
const RESPONSES: Readonly<Record<string, StopClass>> = {
  max_output_tokens: 'max_tokens',
  content_filter: 'content_filter',
};

export function responsesStopReason(status: unknown, incompleteReason: unknown): string | null {
  if (typeof status !== 'string') return null;
  if (status === 'incomplete') return typeof incompleteReason === 'string' ? incompleteReason : 'incomplete';
  return status;
}

export function classifyResponsesStop(raw: string | null | undefined, hasFunctionCalls: boolean): StopClass {
  if (raw === 'completed') return hasFunctionCalls ? 'tool_use' : 'end_turn';
  return classify(RESPONSES, raw);
}

/**
 * Gemini `finishReason`: the API has no tool-call reason, a turn with
 * function calls ends with STOP. The block reasons (a candidate blocked, or
 * `PROMPT_<blockReason>` when the prompt was blocked and no candidate came)
 * are content_filter; MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL and the
 * rest are unknown, so the loop fails closed on them.
 */
const GEMINI: Readonly<Record<string, StopClass>> = {
  MAX_TOKENS: 'max_tokens',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  PROMPT_SAFETY: 'content_filter',
  PROMPT_BLOCKLIST: 'content_filter',
  PROMPT_PROHIBITED_CONTENT: 'content_filter',
  PROMPT_IMAGE_SAFETY: 'content_filter',
  PROMPT_OTHER: 'content_filter',
};

export function classifyGeminiStop(raw: string | null | undefined, hasFunctionCalls: boolean): StopClass {
  if (raw === 'STOP') return hasFunctionCalls ? 'tool_use' : 'end_turn';
  return classify(GEMINI, raw);
}
