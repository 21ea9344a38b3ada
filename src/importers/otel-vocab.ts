/**
 * The span vocabularies of real instrumentation, beside the GenAI semantic
 * conventions' own (otlp-json.ts ATTR):
 * - Vercel AI SDK `experimental_telemetry` (ai 5/6, and AI SDK 7's legacy
 *   mode): spans named by `ai.operationId`: `ai.generateText` /
 *   `ai.streamText` / `ai.generateObject` / `ai.streamObject` (the call of
 *   the user's code: a session), `ai.generateText.doGenerate` /
 *   `ai.streamText.doStream` (one model call: `ai.model.id`,
 *   `ai.model.provider`, `ai.response.finishReason`, `ai.response.toolCalls`,
 *   `ai.usage.*`, `ai.response.msToFirstChunk`), `ai.toolCall` (one tool
 *   execution: `ai.toolCall.name`, `ai.toolCall.id`; a thrown tool is status
 *   ERROR). These spans carry no `gen_ai.operation.name`.
 * - OpenLLMetry (traceloop): `traceloop.span.kind` = `workflow` / `agent`
 *   (a session), `task`, `tool` (a tool, named `traceloop.entity.name`);
 *   its model-call spans are GenAI semconv (`gen_ai.*`, `llm.request.type`
 *   = `chat`).
 * - OpenInference: `llm.finish_reason` (its openai instrumentation writes
 *   it), else the output message's `finish_reason`; the tool calls of an LLM
 *   span are its `llm.output_messages.0.message.tool_calls.N.tool_call.*`.
 */
import type { StopClass } from '../events/labels.js';

export const AI = {
  operationId: 'ai.operationId',
  modelId: 'ai.model.id',
  modelProvider: 'ai.model.provider',
  finishReason: 'ai.response.finishReason',
  toolCalls: 'ai.response.toolCalls',
  msToFirstChunk: 'ai.response.msToFirstChunk',
  inputTokens: 'ai.usage.inputTokens',
  outputTokens: 'ai.usage.outputTokens',
  promptTokens: 'ai.usage.promptTokens',
  completionTokens: 'ai.usage.completionTokens',
  cachedInputTokens: 'ai.usage.cachedInputTokens',
  cacheReadTokens: 'ai.usage.inputTokenDetails.cacheReadTokens',
  cacheWriteTokens: 'ai.usage.inputTokenDetails.cacheWriteTokens',
  toolName: 'ai.toolCall.name',
  toolId: 'ai.toolCall.id',
  functionId: 'ai.telemetry.functionId',
  // OpenLLMetry
  traceloopKind: 'traceloop.span.kind',
  traceloopName: 'traceloop.entity.name',
  llmRequestType: 'llm.request.type',
  // OpenInference
  oiFinishReason: 'llm.finish_reason',
  oiMessageFinishReason: 'llm.output_messages.0.message.finish_reason',
  /** Derived on reading (not an attribute of any producer): how many tool calls OpenInference's output message lists. */
  oiToolCallCount: 'openinference.derived.tool_call_count',
  /**
   * The GenAI semantic conventions' recorded output (a JSON string of
   * messages whose `parts` have `type` `tool_call`), as AI SDK 7's
   * @ai-sdk/otel and OpenLLMetry 0.27 write it on a chat span; only present
   * when outputs are recorded.
   */
  outputMessages: 'gen_ai.output.messages',
  /** Derived on reading: how many `tool_call` parts `gen_ai.output.messages` has. */
  outputToolCallCount: 'gen_ai.derived.tool_call_count',
  /**
   * The tool's own execution time in seconds: the GenAI semantic
   * conventions' `gen_ai.execute_tool.duration` (a histogram there), which
   * AI SDK 7's @ai-sdk/otel also sets on each execute_tool span. The span's
   * own duration runs longer (a thrown tool's span ends after the SDK has
   * handled the error; parallel tools' spans wait on each other).
   */
  executeToolDuration: 'gen_ai.execute_tool.duration',
} as const;

/** OpenInference lists an LLM span's tool calls as flattened output-message attributes, one id each. */
export const OI_TOOL_CALL_ID = /^llm\.output_messages\.0\.message\.tool_calls\.\d+\.tool_call\.id$/;

/** Span roles by AI SDK operation id. */
export const AI_SESSION_OPS = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);
export const AI_CHAT_OPS = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream']);
export const AI_TOOL_OP = 'ai.toolCall';

/**
 * Finish reasons as the GenAI semantic conventions (`stop`, `length`,
 * `content_filter`, `tool_call`, `error`) and the AI SDK (`stop`, `length`,
 * `content-filter`, `tool-calls`, `error`, `other`, `unknown`) spell them,
 * beside the providers' own (stop-class.ts). A tool turn is a tool turn
 * whichever way it is spelled: classing `tool_call` unknown would call every
 * normal tool turn a fail-closed stop.
 */
const GENERIC: Readonly<Record<string, StopClass>> = {
  tool_call: 'tool_use',
  'tool-calls': 'tool_use',
  tool_calls: 'tool_use',
  tool_use: 'tool_use',
  stop: 'end_turn',
  end_turn: 'end_turn',
  length: 'max_tokens',
  max_tokens: 'max_tokens',
  content_filter: 'content_filter',
  'content-filter': 'content_filter',
  stop_sequence: 'stop_sequence',
  pause_turn: 'pause_turn',
  refusal: 'refusal',
  model_context_window_exceeded: 'context_window_exceeded',
  // Gemini's finishReason, as the API spells it and as Google's GenAI instrumentation writes it (the enum name lower-cased);
  // a Gemini tool turn is STOP with calls. MALFORMED_FUNCTION_CALL stays unknown (fail closed).
  STOP: 'end_turn',
  MAX_TOKENS: 'max_tokens',
  SAFETY: 'content_filter',
  safety: 'content_filter',
  RECITATION: 'content_filter',
  recitation: 'content_filter',
  BLOCKLIST: 'content_filter',
  blocklist: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  prohibited_content: 'content_filter',
  SPII: 'content_filter',
  spii: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  image_safety: 'content_filter',
};

/** A recorded finish reason's class, or null when none is recorded (not the `null` class: not available in source). */
export function finishReasonClass(reason: string | null): StopClass | null {
  if (reason === null) return null;
  return Object.hasOwn(GENERIC, reason) ? (GENERIC[reason] as StopClass) : 'unknown';
}

/** The number of `tool_call` parts in `gen_ai.output.messages`, or null when it is absent or not that JSON. */
export function outputToolCallCount(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  try {
    const messages = JSON.parse(value) as unknown;
    if (!Array.isArray(messages)) return null;
    let n = 0;
    for (const m of messages) {
      const parts = typeof m === 'object' && m !== null ? (m as { parts?: unknown }).parts : undefined;
      if (!Array.isArray(parts)) return null;
      n += parts.filter((p) => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'tool_call').length;
    }
    return n;
  } catch {
    return null;
  }
}

/** The number of entries of `ai.response.toolCalls` (a JSON array as a string), or null when absent or not JSON. */
export function aiToolCallCount(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.length : null;
  } catch {
    return null;
  }
}
