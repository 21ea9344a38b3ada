/**
 * Gemini generateContent request body (already checked by
 * check-gemini-body.ts) -> neutral request. `model` contents are model
 * turns, `user` contents (role absent too) user turns; a functionCall part
 * is a tool_use, a functionResponse part a tool_result. The call id is the
 * part's `id` when the client echoes it; a client that does not (the API
 * made ids optional) gets its responses paired with the previous turn's calls
 * by name, in order. A response whose object is `{error: ...}` is an error
 * result (the convention of the genai SDK's docs and of Gemini CLI);
 * `{output: "text"}` reads as that text. Thought parts are not content.
 */
import { checkToolInput } from '../providers/tool-arguments.js';
import type { ToolUseBlock } from '../providers/types.js';
import type { DecodedRequest, DecodedTool } from './decoded-request.js';
import type { GeminiCall } from './gemini-call.js';
import { isObject, isString, partsText, type JsonObject } from './json-shape.js';
import { NeutralMessages } from './neutral-messages.js';

const get = (o: JsonObject, camel: string, snake: string): unknown => o[camel] ?? o[snake];

function decodeTools(tools: unknown): DecodedTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter(isObject).flatMap((t) => {
    const declarations = get(t, 'functionDeclarations', 'function_declarations');
    if (!Array.isArray(declarations)) return [];
    return declarations.filter(isObject).flatMap((fn) => {
      if (!isString(fn['name'])) return [];
      const schema = get(fn, 'parametersJsonSchema', 'parameters_json_schema') ?? fn['parameters'];
      return [{ name: fn['name'], description: isString(fn['description']) ? fn['description'] : '', input_schema: isObject(schema) ? schema : {} }];
    });
  });
}

/** A function response's text and whether it reports an error. */
export function responseText(response: unknown): { text: string; error: boolean } {
  if (!isObject(response)) return { text: JSON.stringify(response ?? null), error: false };
  const keys = Object.keys(response);
  if (keys.length === 1 && isString(response['output'])) return { text: response['output'], error: false };
  if ('error' in response && response['error'] !== undefined && response['error'] !== null) {
    return { text: isString(response['error']) ? response['error'] : JSON.stringify(response['error']), error: true };
  }
  return { text: JSON.stringify(response), error: false };
}

export function decodeGemini(body: JsonObject, call: GeminiCall): DecodedRequest {
  const built = new NeutralMessages();
  let previousCalls: ToolUseBlock[] = [];
  let taken = new Set<ToolUseBlock>();
  (body['contents'] as unknown[]).filter(isObject).forEach((content, turn) => {
    const parts = Array.isArray(content['parts']) ? content['parts'].filter(isObject) : [];
    if (content['role'] === 'model') {
      const blocks = built.assistant();
      const own: ToolUseBlock[] = [];
      parts.forEach((part, index) => {
        const fn = get(part, 'functionCall', 'function_call');
        if (isObject(fn)) {
          const block: ToolUseBlock = { type: 'tool_use', id: isString(fn['id']) ? fn['id'] : `gemini_call_${turn}_${index}`, name: String(fn['name']), ...checkToolInput(fn['args'] ?? {}) };
          blocks.push(block);
          own.push(block);
        } else if (isString(part['text']) && part['thought'] !== true && part['text'] !== '') blocks.push({ type: 'text', text: part['text'] });
      });
      if (own.length > 0) {
        previousCalls = own;
        taken = new Set();
      }
      return;
    }
    const blocks = built.user();
    // Exact ids first; a response pairs by name only when it has no id or the calls had none (a client that made up its own).
    const echoed = new Set(parts.flatMap((p) => { const fn = get(p, 'functionResponse', 'function_response'); return isObject(fn) && isString(fn['id']) ? [fn['id']] : []; }));
    const callsHadIds = previousCalls.some((c) => !c.id.startsWith('gemini_call_'));
    for (const part of parts) {
      const fn = get(part, 'functionResponse', 'function_response');
      if (isObject(fn)) {
        const byId = isString(fn['id']) ? previousCalls.find((c) => c.id === fn['id'] && !taken.has(c)) : undefined;
        const free = (c: ToolUseBlock) => !taken.has(c) && !echoed.has(c.id);
        const named = byId || (isString(fn['id']) && callsHadIds) ? undefined : (previousCalls.find((c) => free(c) && c.name === fn['name']) ?? previousCalls.find(free));
        const answered = byId ?? named;
        if (answered) taken.add(answered);
        const { text, error } = responseText(fn['response']);
        // A client id the calls do not know (a client that made up its own) still answers the call it pairs with.
        blocks.push({ type: 'tool_result', tool_use_id: answered?.id ?? (isString(fn['id']) ? fn['id'] : String(fn['name'])), content: text, is_error: error });
      } else if (isString(part['text']) && part['thought'] !== true) blocks.push({ type: 'text', text: part['text'] });
    }
  });
  const system = get(body, 'systemInstruction', 'system_instruction');
  const generation = get(body, 'generationConfig', 'generation_config');
  const maxTokens = isObject(generation) ? get(generation, 'maxOutputTokens', 'max_output_tokens') : undefined;
  const decoded: DecodedRequest = {
    wire: 'gemini',
    model: call.model,
    messages: built.messages,
    tools: decodeTools(body['tools']),
    maxTokens: typeof maxTokens === 'number' ? maxTokens : null,
    stream: call.stream !== null,
  };
  if (call.stream !== null) decoded.geminiStream = call.stream;
  const systemText = isString(system) ? system : isObject(system) ? partsText(system['parts']) : '';
  if (systemText !== '') decoded.system = systemText;
  return decoded;
}
