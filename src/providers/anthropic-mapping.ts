/**
 * Neutral messages <-> Anthropic Messages API shapes (docs/harness-rules.md#tool-call-round-trip, docs/harness-rules.md#one-result-per-call). Pure
 * functions, so describeRequest measures exactly the body complete() sends.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { toolSchemaFor, type DialectOptions } from './dialects/index.js';
import { classifyAnthropicStop } from './stop-class.js';
import { checkToolInput } from './tool-arguments.js';
import { withCacheBreakpoints } from './anthropic-cache.js';
import type { AssistantBlock, Message, ModelRequest, ModelResponse, ToolDefinition } from './types.js';

export type AnthropicParams = Anthropic.MessageCreateParamsNonStreaming;

function toWireMessage(message: Message): Anthropic.MessageParam {
  if (message.role === 'assistant') {
    return {
      role: 'assistant',
      content: message.content.map((block): Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam =>
        block.type === 'text'
          ? { type: 'text', text: block.text }
          : { type: 'tool_use', id: block.id, name: block.name, input: block.input },
      ),
    };
  }
  return {
    role: 'user',
    content: message.content.map((block): Anthropic.TextBlockParam | Anthropic.ToolResultBlockParam =>
      block.type === 'text'
        ? { type: 'text', text: block.text }
        : { type: 'tool_result', tool_use_id: block.tool_use_id, content: block.content, is_error: block.is_error },
    ),
  };
}

function toWireTool(tool: ToolDefinition, requested: DialectOptions): Anthropic.Tool {
  // The JSON Schema comes from the tool's zod schema (docs/harness-rules.md#one-schema-per-tool) through the Anthropic dialect (docs/harness-rules.md#schema-dialects); the SDK type wants its own input_schema shape.
  const dialect = tool.strict === false ? { ...requested, strict: false } : requested;
  const input_schema = toolSchemaFor('anthropic', tool.input_schema, dialect) as Anthropic.Tool.InputSchema;
  return { name: tool.name, description: tool.description, input_schema, ...(dialect.strict ? { strict: true } : {}) };
}

/** `promptCache` (default true): send cache_control breakpoints (anthropic-cache.ts). */
export function toAnthropicParams(model: string, request: ModelRequest, dialect: DialectOptions = {}, promptCache = true): AnthropicParams {
  const params: AnthropicParams = {
    model,
    max_tokens: request.maxTokens,
    messages: request.messages.map(toWireMessage),
  };
  if (request.system !== undefined && request.system !== '') params.system = request.system;
  if (request.tools.length > 0) params.tools = request.tools.map((tool) => toWireTool(tool, dialect));
  return promptCache ? withCacheBreakpoints(params) : params;
}

export function fromAnthropicMessage(message: Anthropic.Message): Omit<ModelResponse, 'ttftMs'> {
  const content: AssistantBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, ...checkToolInput(block.input) });
    // Server-side blocks (thinking, web search, ...) are not part of the neutral form; the harness never executes them.
  }
  // The non-streaming type says non-null, but gateways send null (docs/harness-rules.md#stop-reasons): keep what arrived.
  const stopReason: string | null = message.stop_reason ?? null;
  const usage = message.usage;
  return {
    content,
    stopReason,
    stopClass: classifyAnthropicStop(stopReason),
    usage: {
      input_tokens: usage?.input_tokens ?? 0,
      output_tokens: usage?.output_tokens ?? 0,
      cache_read_tokens: usage?.cache_read_input_tokens ?? 0,
      cache_write_tokens: usage?.cache_creation_input_tokens ?? 0,
    },
  };
}
