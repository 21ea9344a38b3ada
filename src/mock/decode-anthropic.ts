/**
 * Anthropic Messages request body (already checked by check-anthropic-body.ts)
 * -> neutral request. The conversation is read as the API reads it: one turn
 * per run of same-role messages, `role: "system"` messages aside. Blocks the
 * neutral form has no place for (thinking, images, server tools) are skipped:
 * the engine never needs them.
 */
import type { AssistantBlock, Message, UserBlock } from '../providers/types.js';
import type { DecodedRequest, DecodedTool } from './decoded-request.js';
import { isObject, isString, partsText, type JsonObject } from './json-shape.js';
import { mergeTurns, type MergedMessage } from './merge-turns.js';

function toNeutral(role: 'user' | 'assistant', content: JsonObject[]): Message {
  if (role === 'assistant') {
    const blocks: AssistantBlock[] = [];
    for (const b of content) {
      if (b['type'] === 'text' && isString(b['text'])) blocks.push({ type: 'text', text: b['text'] });
      else if (b['type'] === 'tool_use' && isString(b['id']) && isString(b['name'])) {
        blocks.push({ type: 'tool_use', id: b['id'], name: b['name'], input: isObject(b['input']) ? b['input'] : {} });
      }
    }
    return { role, content: blocks };
  }
  const blocks: UserBlock[] = [];
  for (const b of content) {
    if (b['type'] === 'text' && isString(b['text'])) blocks.push({ type: 'text', text: b['text'] });
    else if (b['type'] === 'tool_result' && isString(b['tool_use_id'])) {
      blocks.push({ type: 'tool_result', tool_use_id: b['tool_use_id'], content: partsText(b['content']), is_error: b['is_error'] === true });
    }
  }
  return { role, content: blocks };
}

function decodeTools(tools: unknown): DecodedTool[] {
  const out: DecodedTool[] = [];
  if (!Array.isArray(tools)) return out;
  for (const t of tools) {
    if (!isObject(t) || !isString(t['name'])) continue;
    out.push({ name: t['name'], description: isString(t['description']) ? t['description'] : '', input_schema: isObject(t['input_schema']) ? t['input_schema'] : {} });
  }
  return out;
}

/** `merged`: the body's messages through mergeTurns, when the caller has them already. */
export function decodeAnthropic(body: JsonObject, merged?: readonly MergedMessage[]): DecodedRequest {
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  const decoded: DecodedRequest = {
    wire: 'anthropic',
    model: String(body['model']),
    messages: (merged ?? mergeTurns(messages)).map((m) => toNeutral(m.role, m.content)),
    tools: decodeTools(body['tools']),
    maxTokens: typeof body['max_tokens'] === 'number' ? body['max_tokens'] : null,
    stream: body['stream'] === true,
  };
  const system = body['system'];
  if (isString(system)) decoded.system = system;
  else if (Array.isArray(system)) decoded.system = system.map((p) => (isObject(p) && isString(p['text']) ? p['text'] : '')).join('\n');
  return decoded;
}
