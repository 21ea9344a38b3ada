/**
 * MockReply -> Anthropic Messages wire (JSON). A turn's reasoning is a
 * `thinking` block first, with a signature, as the API sends it. The SSE
 * encoder emits the same message as events, reusing `anthropicToolInput`.
 */
import type { MockBlock, MockReply } from './engine.js';
import { partialObject } from './partial-json.js';

/** An opaque signature, as the API attaches to every thinking block (harnesses must send it back unchanged). */
export const THINKING_SIGNATURE = 'ZmF1bHRsaW5lLW1vY2stdGhpbmtpbmc=';

export interface EncodeOptions {
  model: string;
  /** Message id, deterministic per session and turn. */
  id: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `raw_arguments` as the JSON wire can carry it: the parsed value if it parses (objects or not), else `{}`. */
function rawToValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}

/** The `input` of a tool_use on the JSON wire; a cut one keeps only the keys completed before the cut. */
export function anthropicToolInput(block: Extract<MockBlock, { type: 'tool_use' }>, cut: boolean): unknown {
  const value = block.rawArguments !== undefined ? rawToValue(block.rawArguments) : block.input;
  return cut && isObject(value) ? partialObject(value) : value;
}

export function encodeAnthropicMessage(reply: MockReply, options: EncodeOptions): Record<string, unknown> {
  const lastToolIndex = reply.content.map((b) => b.type).lastIndexOf('tool_use');
  const content: unknown[] = reply.content.map((block, index) =>
    block.type === 'text'
      ? { type: 'text', text: block.text }
      : { type: 'tool_use', id: block.id, name: block.name, input: anthropicToolInput(block, reply.cutToolInput && index === lastToolIndex) },
  );
  if (reply.reasoning !== undefined) content.unshift({ type: 'thinking', thinking: reply.reasoning, signature: THINKING_SIGNATURE });
  return {
    id: options.id,
    type: 'message',
    role: 'assistant',
    model: options.model,
    content,
    stop_reason: reply.stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage.input_tokens,
      output_tokens: reply.usage.output_tokens,
      cache_creation_input_tokens: reply.usage.cache_write_tokens,
      cache_read_input_tokens: reply.usage.cache_read_tokens,
      service_tier: 'standard',
    },
  };
}
