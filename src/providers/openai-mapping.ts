/**
 * Neutral messages <-> OpenAI Chat Completions shapes (docs/harness-rules.md#wire-differences): arguments are
 * a JSON string, each tool result is its own `role: "tool"` message, the system
 * prompt is a system message. Pure functions, shared by complete() and
 * describeRequest().
 */
import type OpenAI from 'openai';
import { toolSchemaFor, type DialectOptions } from './dialects/index.js';
import { classifyOpenAIStop } from './stop-class.js';
import { parseToolArguments } from './tool-arguments.js';
import type { AssistantBlock, Message, ModelRequest, ModelResponse, ToolDefinition } from './types.js';

export type OpenAIParams = OpenAI.ChatCompletionCreateParamsNonStreaming;
type WireMessage = OpenAI.ChatCompletionMessageParam;

/**
 * Chat Completions has no `is_error` on tool messages, so an error result is
 * marked in its text. The mock decoder reads the same prefix back.
 */
export const OPENAI_TOOL_ERROR_PREFIX = 'Error: ';

/** `max_completion_tokens` is current OpenAI; many OpenAI-compatible servers only know `max_tokens`. */
export type MaxTokensParam = 'max_completion_tokens' | 'max_tokens';

function toolResultText(content: string, isError: boolean): string {
  if (!isError || content.startsWith(OPENAI_TOOL_ERROR_PREFIX)) return content;
  return OPENAI_TOOL_ERROR_PREFIX + content;
}

function toWireMessages(message: Message): WireMessage[] {
  if (message.role === 'assistant') {
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const calls = message.content.flatMap((b) =>
      b.type === 'tool_use'
        ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }]
        : [],
    );
    const wire: OpenAI.ChatCompletionAssistantMessageParam = { role: 'assistant', content: text === '' ? null : text };
    if (calls.length > 0) wire.tool_calls = calls;
    return [wire];
  }
  // Tool messages must directly follow the assistant message, so results go first, in order; text after.
  const out: WireMessage[] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block.content, block.is_error) });
    }
  }
  const texts = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  if (texts.length === 1) out.push({ role: 'user', content: texts[0] as string });
  else if (texts.length > 1) out.push({ role: 'user', content: texts.map((text) => ({ type: 'text' as const, text })) });
  return out;
}

function toWireTool(tool: ToolDefinition, requested: DialectOptions): OpenAI.ChatCompletionFunctionTool {
  // The schema goes through the OpenAI dialect (docs/harness-rules.md#schema-dialects): the only place that shapes `parameters`.
  const dialect = tool.strict === false ? { ...requested, strict: false } : requested;
  const parameters = toolSchemaFor('openai', tool.input_schema, dialect);
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters, ...(dialect.strict ? { strict: true } : {}) } };
}

export function toOpenAIParams(model: string, request: ModelRequest, maxTokensParam: MaxTokensParam, dialect: DialectOptions = {}): OpenAIParams {
  const messages: WireMessage[] = [];
  if (request.system !== undefined && request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(...toWireMessages(message));
  const params: OpenAIParams = { model, messages };
  params[maxTokensParam] = request.maxTokens;
  if (request.tools.length > 0) params.tools = request.tools.map((tool) => toWireTool(tool, dialect));
  return params;
}

function toolCallBlock(call: OpenAI.ChatCompletionMessageToolCall): AssistantBlock {
  if (call.type === 'function') {
    return { type: 'tool_use', id: call.id, name: call.function.name, ...parseToolArguments(call.function.arguments ?? '') };
  }
  // Custom (free-text) tools are never declared by us; keep the call so it still gets a result (docs/harness-rules.md#one-result-per-call).
  return { type: 'tool_use', id: call.id, name: call.custom.name, ...parseToolArguments(call.custom.input) };
}

export function fromOpenAICompletion(completion: OpenAI.ChatCompletion): Omit<ModelResponse, 'ttftMs'> {
  const choice = completion.choices[0];
  const content: AssistantBlock[] = [];
  const text = choice?.message.content;
  if (typeof text === 'string' && text !== '') content.push({ type: 'text', text });
  for (const call of choice?.message.tool_calls ?? []) content.push(toolCallBlock(call));
  // The type says non-null, but gateways send null (docs/harness-rules.md#stop-reasons): keep what arrived.
  const stopReason: string | null = choice?.finish_reason ?? null;
  const usage = completion.usage;
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    content,
    stopReason,
    stopClass: classifyOpenAIStop(stopReason),
    usage: {
      // OpenAI's prompt_tokens include cached ones; the neutral form counts them apart (as Anthropic does).
      input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached),
      output_tokens: usage?.completion_tokens ?? 0,
      cache_read_tokens: cached,
      cache_write_tokens: 0,
    },
  };
}
