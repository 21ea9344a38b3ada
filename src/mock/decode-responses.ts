/**
 * OpenAI Responses request body (already checked by check-responses-body.ts)
 * -> the full item history (the stored history of `previous_response_id`,
 * then this request's `input`, `item_reference`s resolved) -> neutral request.
 * A run of assistant-side items (reasoning, assistant message, function_call)
 * is one model turn; function_call_output items and user messages fold into
 * one neutral user message. Error results carry the same text prefix as on
 * Chat Completions (this wire has no `is_error` either).
 */
import { OPENAI_TOOL_ERROR_PREFIX } from '../providers/openai-mapping.js';
import { parseToolArguments } from '../providers/tool-arguments.js';
import type { Message } from '../providers/types.js';
import type { DecodedRequest, DecodedTool, RequestProblem } from './decoded-request.js';
import { isObject, isString, partsText, type JsonObject } from './json-shape.js';
import type { ResponseStore } from './response-store.js';
import { NeutralMessages } from './neutral-messages.js';

export type ResolvedInput = { ok: true; items: JsonObject[] } | { ok: false; problem: RequestProblem };

/** This request's conversation as the API sees it: stored history first, then the input items. */
export function resolveResponsesInput(body: JsonObject, store: ResponseStore): ResolvedInput {
  const previous = body['previous_response_id'];
  let items: JsonObject[] = [];
  if (isString(previous)) {
    const history = store.history(previous);
    if (history === null) {
      return { ok: false, problem: { message: `Previous response with id '${previous}' not found.`, param: 'previous_response_id', code: 'previous_response_not_found' } };
    }
    items = [...history];
  }
  const input = body['input'];
  const given: unknown[] = isString(input) ? [{ type: 'message', role: 'user', content: input }] : Array.isArray(input) ? input : [];
  for (const raw of given.filter(isObject)) {
    if (raw['type'] === 'item_reference') {
      const found = store.emitted(String(raw['id']));
      if (found === null) return { ok: false, problem: { message: `Item with id '${String(raw['id'])}' not found.`, param: 'input', code: null } };
      items.push(found.item);
    } else items.push(raw['type'] === undefined ? { ...raw, type: 'message' } : raw);
  }
  return { ok: true, items };
}

function decodeTools(tools: unknown): DecodedTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter(isObject).flatMap((t) => {
    if (t['type'] !== 'function' || !isString(t['name'])) return [];
    const tool: DecodedTool = { name: t['name'], description: isString(t['description']) ? t['description'] : '', input_schema: isObject(t['parameters']) ? t['parameters'] : {} };
    return [tool];
  });
}

/** Neutral messages from the item history; also the system text its system/developer messages carry. */
export function responsesMessages(items: readonly JsonObject[]): { messages: Message[]; system: string[] } {
  const built = new NeutralMessages();
  const system: string[] = [];
  for (const item of items) {
    const type = item['type'];
    if (type === 'message') {
      const role = item['role'];
      const text = partsText(item['content']);
      if (role === 'system' || role === 'developer') system.push(text);
      else if (role === 'assistant') {
        const blocks = built.assistant();
        if (text !== '') blocks.push({ type: 'text', text });
      } else built.user().push({ type: 'text', text });
    } else if (type === 'reasoning') built.assistant();
    else if (type === 'function_call') {
      built.assistant().push({ type: 'tool_use', id: String(item['call_id']), name: String(item['name']), ...parseToolArguments(String(item['arguments'])) });
    } else if (type === 'function_call_output') {
      const content = partsText(item['output']);
      built.user().push({ type: 'tool_result', tool_use_id: String(item['call_id']), content, is_error: content.startsWith(OPENAI_TOOL_ERROR_PREFIX) });
    }
  }
  return { messages: built.messages, system };
}

export function decodeResponses(body: JsonObject, items: readonly JsonObject[]): DecodedRequest {
  const { messages, system } = responsesMessages(items);
  if (isString(body['instructions'])) system.unshift(body['instructions']);
  const decoded: DecodedRequest = {
    wire: 'responses',
    model: String(body['model']),
    messages,
    tools: decodeTools(body['tools']),
    maxTokens: typeof body['max_output_tokens'] === 'number' ? body['max_output_tokens'] : null,
    stream: body['stream'] === true,
    store: body['store'] !== false,
  };
  if (isString(body['previous_response_id'])) decoded.previousResponseId = body['previous_response_id'];
  if (system.length > 0) decoded.system = system.join('\n');
  return decoded;
}
