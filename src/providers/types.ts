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
  /**
   * false: never sent in a wire's strict mode, whatever the request asks. For
   * schemas that come from outside (MCP servers, docs/harness-rules.md#dialect-per-provider): the strict subset
   * is only known to fit the schemas we generate. Absent: follows the request.
   */
  strict?: false;
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

/**
 * Optional per-call hooks for streaming consumers (the streaming scheduler,
 * docs/harness-rules.md#streaming-execution). Non-streaming adapters never call them.
 */
export interface CompleteOptions {
  /**
   * Called once per tool_use the moment it is complete: Anthropic at its
   * `content_block_stop`, OpenAI when `finish_reason` arrives (deltas of
   * parallel calls interleave by index, so no call is known complete earlier).
   * Never called for a partial call: arguments that do not parse (cut off,
   * malformed, empty on OpenAI) and calls of a turn that ended with
   * `length`/`content_filter` are not reported; they still appear in the
   * response with `inputError`. If complete() then rejects (the stream broke
   * later), every block reported by this call belongs to a discarded attempt.
   */
  onToolUse?(block: ToolUseBlock): void;
}

export interface Model {
  /** Provider label for events, e.g. `anthropic`, `openai`, `mock`. */
  readonly provider: string;
  readonly model: string;
  /** Size of the request as it will be encoded on this provider's wire (`stream` says whether it streams). */
  describeRequest(request: ModelRequest): RequestInfo;
  /**
   * One model call (one attempt: adapters never retry, the harness does).
   * Throws ModelCallError for provider errors (classified, never by message
   * text); a user abort rejects with the signal's reason.
   */
  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse>;
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
    /** The server's `x-should-retry` header (true/false), null when absent: it overrides `retryable` (except for never-retry statuses). */
    readonly shouldRetry: boolean | null = null,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}
