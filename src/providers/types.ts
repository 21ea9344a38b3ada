/**
 * The provider-neutral model interface and internal message form. The harness
 * speaks only this; adapters translate to and from each wire format. The
 * harness never knows whether the provider behind a Model is mocked.
 */
import type { ModelErrorKind, StopClass } from '../events/labels.js';

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  /** Parsed input. `{}` when the wire arguments could not be parsed (see `inputError`). */
  input: Record<string, unknown>;
  /**
   * Set when the wire arguments were not a JSON object (empty, malformed or cut
   * off): the raw text, capped, so the harness can answer with a precise error.
   */
  inputError?: { reason: 'empty' | 'malformed' | 'not_object'; raw: string };
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

export type AssistantBlock = TextBlock | ToolUseBlock;
export type UserBlock = TextBlock | ToolResultBlock;

export type Message =
  | { role: 'user'; content: UserBlock[] }
  | { role: 'assistant'; content: AssistantBlock[] };

/** A JSON Schema object as sent to the model. */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export interface ModelRequest {
  system?: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxTokens: number;
  signal?: AbortSignal;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export interface ModelResponse {
  content: AssistantBlock[];
  /** The raw stop reason as the provider sent it (`null` if absent). */
  stopReason: string | null;
  stopClass: StopClass;
  usage: Usage;
  /** Time to first token; null for non-streaming calls. */
  ttftMs: number | null;
}

/** What an adapter reports about the request it actually sent (for model_request events). */
export interface RequestInfo {
  requestBytes: number;
  toolsBytes: number;
  stream: boolean;
}

export interface Model {
  /** Provider label for events, e.g. `anthropic`, `openai`, `mock`. */
  readonly provider: string;
  readonly model: string;
  /** Size of the request as it will be encoded on this provider's wire. */
  describeRequest(request: ModelRequest): RequestInfo;
  /** One model call. Throws ModelCallError for provider errors (classified, never by message text). */
  complete(request: ModelRequest): Promise<ModelResponse>;
}

/** A classified provider error. `kind` comes from status codes and error classes, never from message text. */
export class ModelCallError extends Error {
  readonly code = 'MODEL_CALL_ERROR';
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}
