/**
 * OpenAI Chat Completions request body (already checked by check-openai-body.ts)
 * -> neutral request. Consecutive assistant messages are ONE model turn (the
 * OpenAI Agents SDK sends a turn's text and its tool calls as two messages);
 * consecutive tool and user messages fold into one neutral user message
 * (results first), the inverse of the adapter's mapping. `is_error` does not
 * exist on this wire; the adapter marks error results with a text prefix,
 * read back here.
 */
import { OPENAI_TOOL_ERROR_PREFIX } from '../providers/openai-mapping.js';
import { parseToolArguments } from '../providers/tool-arguments.js';
import type { AssistantBlock } from '../providers/types.js';
import type { DecodedRequest, DecodedTool } from './decoded-request.js';
import { isObject, isString, partsText, type JsonObject } from './json-shape.js';
import { NeutralMessages } from './neutral-messages.js';

function decodeTools(tools: unknown): DecodedTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter(isObject).flatMap((t) => {
    const fn = t['function'] ?? t['custom'];
    if (!isObject(fn) || !isString(fn['name'])) return [];
    const tool: DecodedTool = { name: fn['name'], description: isString(fn['description']) ? fn['description'] : '', input_schema: isObject(fn['parameters']) ? fn['parameters'] : {} };
    return [tool];
  });
}

function callBlocks(calls: unknown): AssistantBlock[] {
  if (!Array.isArray(calls)) return [];
  return calls.filter(isObject).flatMap((call) => {
    const fn = call['function'] ?? call['custom'];
    if (!isString(call['id']) || !isObject(fn) || !isString(fn['name'])) return [];
    const raw = isString(fn['arguments']) ? fn['arguments'] : isString(fn['input']) ? fn['input'] : '';
    return [{ type: 'tool_use', id: call['id'], name: fn['name'], ...parseToolArguments(raw) } as AssistantBlock];
  });
}

export function decodeOpenAI(body: JsonObject): DecodedRequest {
  const system: string[] = [];
  const built = new NeutralMessages();
  for (const m of (body['messages'] as unknown[]).filter(isObject)) {
    const role = m['role'];
    if (role === 'system' || role === 'developer') system.push(partsText(m['content']));
    else if (role === 'user') built.user().push({ type: 'text', text: partsText(m['content']) });
    else if (role === 'tool' || role === 'function') {
      const content = partsText(m['content']);
      const id = isString(m['tool_call_id']) ? m['tool_call_id'] : String(m['name']);
      built.user().push({ type: 'tool_result', tool_use_id: id, content, is_error: content.startsWith(OPENAI_TOOL_ERROR_PREFIX) });
    } else if (role === 'assistant') {
      const blocks = built.assistant();
      const said = partsText(m['content']);
      if (said !== '') blocks.push({ type: 'text', text: said });
      blocks.push(...callBlocks(m['tool_calls']));
    }
  }
  const decoded: DecodedRequest = {
    wire: 'openai',
    model: String(body['model']),
    messages: built.messages,
    tools: decodeTools(body['tools']),
    maxTokens: typeof body['max_completion_tokens'] === 'number' ? body['max_completion_tokens'] : typeof body['max_tokens'] === 'number' ? body['max_tokens'] : null,
    stream: body['stream'] === true,
  };
  const options = body['stream_options'];
  if (body['stream'] === true && isObject(options) && options['include_usage'] === true) decoded.streamUsage = true;
  if (system.length > 0) decoded.system = system.join('\n');
  return decoded;
}
