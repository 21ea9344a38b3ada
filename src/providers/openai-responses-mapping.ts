/**
 * Neutral messages <-> OpenAI Responses shapes (item and field names as in
 * openai 6.49.0 resources/responses/responses.d.ts). Stateless: every request
 * sends the whole conversation as input items with `store: false`, so a turn
 * never depends on server-side state (the mock and the API keep it for
 * harnesses that chain `previous_response_id`). The system prompt is
 * `instructions`; a tool_use is a `function_call` (its id the `call_id`), a
 * tool_result a `function_call_output`, marked with the same error prefix as
 * Chat Completions (no `is_error` here either). Function tools are strict by
 * default on this API, so `strict` is always sent.
 */
import type OpenAI from 'openai';
import { toolSchemaFor, type DialectOptions } from './dialects/index.js';
import { OPENAI_TOOL_ERROR_PREFIX } from './openai-mapping.js';
import { classifyResponsesStop, responsesStopReason } from './stop-class.js';
import { parseToolArguments } from './tool-arguments.js';
import type { AssistantBlock, Message, ModelRequest, ModelResponse, ToolDefinition, Usage } from './types.js';

export type ResponsesParams = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;

const errorText = (content: string, isError: boolean) => (!isError || content.startsWith(OPENAI_TOOL_ERROR_PREFIX) ? content : OPENAI_TOOL_ERROR_PREFIX + content);

function toItems(message: Message): InputItem[] {
  if (message.role === 'assistant') {
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const out: InputItem[] = text === '' ? [] : [{ role: 'assistant', content: text }];
    for (const b of message.content) if (b.type === 'tool_use') out.push({ type: 'function_call', call_id: b.id, name: b.name, arguments: JSON.stringify(b.input) });
    return out;
  }
  // Outputs first, in order, right after the calls they answer; user text after them.
  const out: InputItem[] = message.content.flatMap((b) => (b.type === 'tool_result' ? [{ type: 'function_call_output' as const, call_id: b.tool_use_id, output: errorText(b.content, b.is_error) }] : []));
  const texts = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  if (texts.length === 1) out.push({ role: 'user', content: texts[0] as string });
  else if (texts.length > 1) out.push({ role: 'user', content: texts.map((text) => ({ type: 'input_text' as const, text })) });
  return out;
}

function toWireTool(tool: ToolDefinition, requested: DialectOptions): OpenAI.Responses.FunctionTool {
  // A tool that opts out (an outside schema, e.g. MCP) is never sent strict, as on the other wires.
  const dialect = tool.strict === false ? { ...requested, strict: false } : requested;
  // Same schema family as Chat Completions (docs/harness-rules.md#schema-dialects): the OpenAI dialect is the only place that shapes `parameters`.
  return { type: 'function', name: tool.name, description: tool.description, parameters: toolSchemaFor('openai', tool.input_schema, dialect), strict: dialect.strict === true };
}

export function toResponsesParams(model: string, request: ModelRequest, dialect: DialectOptions = {}): ResponsesParams {
  const params: ResponsesParams = { model, input: request.messages.flatMap(toItems), max_output_tokens: request.maxTokens, store: false };
  if (request.system !== undefined && request.system !== '') params.instructions = request.system;
  if (request.tools.length > 0) params.tools = request.tools.map((tool) => toWireTool(tool, dialect));
  return params;
}

/** Usage in the neutral form: `input_tokens` include cached ones here, counted apart there. */
export function responsesUsage(usage: Partial<OpenAI.Responses.ResponseUsage> | null | undefined): Usage {
  const cached = usage?.input_tokens_details?.cached_tokens ?? 0;
  return { input_tokens: Math.max(0, (usage?.input_tokens ?? 0) - cached), output_tokens: usage?.output_tokens ?? 0, cache_read_tokens: cached, cache_write_tokens: 0 };
}

export function fromResponsesObject(response: OpenAI.Responses.Response): Omit<ModelResponse, 'ttftMs'> {
  const content: AssistantBlock[] = [];
  let text = '';
  for (const item of response.output ?? []) {
    if (item.type === 'message') for (const part of item.content) if (part.type === 'output_text') text += part.text;
    if (item.type === 'function_call') content.push({ type: 'tool_use', id: item.call_id, name: item.name, ...parseToolArguments(item.arguments ?? '') });
    // Reasoning and built-in tool items are not part of the neutral form; the harness never executes them.
  }
  if (text !== '') content.unshift({ type: 'text', text });
  // The type says status is set; gateways drop it (docs/harness-rules.md#stop-reasons): keep what arrived.
  const stopReason = responsesStopReason(response.status, response.incomplete_details?.reason);
  return { content, stopReason, stopClass: classifyResponsesStop(stopReason, content.some((b) => b.type === 'tool_use')), usage: responsesUsage(response.usage) };
}
