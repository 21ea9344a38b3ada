/**
 * MockReply -> OpenAI Chat Completions wire. Non-streaming JSON now; the SSE
 * encoder (issue 5) will emit chat.completion.chunk deltas from the same
 * `openaiToolCalls` / `openaiFinishReason`.
 */
import type { MockReply } from './engine.js';
import { cutJsonText } from './partial-json.js';

export interface EncodeOptions {
  model: string;
  id: string;
  /** Unix seconds. */
  created: number;
}

const FINISH: Readonly<Record<string, string>> = {
  tool_use: 'tool_calls',
  end_turn: 'stop',
  max_tokens: 'length',
  refusal: 'content_filter',
};

/** Script stop reasons are Anthropic vocabulary: known ones are mapped, others pass through raw, null stays null. */
export function openaiFinishReason(stopReason: string | null): string | null {
  if (stopReason === null) return null;
  return Object.hasOwn(FINISH, stopReason) ? (FINISH[stopReason] as string) : stopReason;
}

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export function openaiToolCalls(reply: MockReply): WireToolCall[] {
  const uses = reply.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
  return uses.map((use, index) => {
    const full = use.rawArguments ?? JSON.stringify(use.input);
    const cut = reply.cutToolInput && index === uses.length - 1;
    return { id: use.id, type: 'function', function: { name: use.name, arguments: cut ? cutJsonText(full) : full } };
  });
}

export function encodeOpenAICompletion(reply: MockReply, options: EncodeOptions): Record<string, unknown> {
  const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const toolCalls = openaiToolCalls(reply);
  const message: Record<string, unknown> = { role: 'assistant', content: text === '' ? null : text, refusal: null, annotations: [] };
  if (toolCalls.length > 0) message['tool_calls'] = toolCalls;
  const { input_tokens, output_tokens, cache_read_tokens } = reply.usage;
  // OpenAI counts cached tokens inside prompt_tokens; it has no cache-write count.
  const promptTokens = input_tokens + cache_read_tokens;
  return {
    id: options.id,
    object: 'chat.completion',
    created: options.created,
    model: options.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: openaiFinishReason(reply.stopReason) }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: output_tokens,
      total_tokens: promptTokens + output_tokens,
      prompt_tokens_details: { cached_tokens: cache_read_tokens, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: null,
  };
}
