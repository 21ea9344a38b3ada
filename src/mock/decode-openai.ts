/**
 * OpenAI Chat Completions request body -> neutral request. Consecutive tool and
 * user messages fold into one neutral user message (results first), the inverse
 * of the adapter's mapping. `is_error` does not exist on this wire; the adapter
 * marks error results with a text prefix, read back here.
 */
import { z } from 'zod';
import { OPENAI_TOOL_ERROR_PREFIX } from '../providers/openai-mapping.js';
import { parseToolArguments } from '../providers/tool-arguments.js';
import type { AssistantBlock, Message, UserBlock } from '../providers/types.js';
import { decodeFailure, type DecodeResult, type DecodedRequest } from './decoded-request.js';

const TextContent = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]);
const ToolCall = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const WireMessage = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: TextContent }),
  z.looseObject({ role: z.literal('developer'), content: TextContent }),
  z.looseObject({ role: z.literal('user'), content: TextContent }),
  z.looseObject({ role: z.literal('assistant'), content: TextContent.nullable().optional(), tool_calls: z.array(ToolCall).optional() }),
  z.looseObject({ role: z.literal('tool'), tool_call_id: z.string(), content: TextContent }),
]);
export type OpenAIWireMessage = z.infer<typeof WireMessage>;

export const OpenAIBody = z.looseObject({
  model: z.string(),
  messages: z.array(WireMessage).min(1),
  tools: z
    .array(z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string(), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }) }))
    .optional(),
  max_tokens: z.number().int().nullable().optional(),
  max_completion_tokens: z.number().int().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullable().optional() }).nullable().optional(),
});
export type OpenAIBody = z.infer<typeof OpenAIBody>;

export function parseOpenAIBody(json: unknown): DecodeResult<OpenAIBody> {
  const parsed = OpenAIBody.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : decodeFailure(parsed.error.issues);
}

function text(content: z.infer<typeof TextContent> | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((p) => (p.type === 'text' && p.text !== undefined ? [p.text] : [])).join('');
}

export function decodeOpenAI(body: OpenAIBody): DecodedRequest {
  const system: string[] = [];
  const messages: Message[] = [];
  const userSide = (): UserBlock[] => {
    const last = messages[messages.length - 1];
    if (last?.role === 'user') return last.content;
    const created: Message = { role: 'user', content: [] };
    messages.push(created);
    return created.content;
  };
  for (const m of body.messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(text(m.content));
    else if (m.role === 'user') userSide().push({ type: 'text', text: text(m.content) });
    else if (m.role === 'tool') {
      const content = text(m.content);
      userSide().push({ type: 'tool_result', tool_use_id: m.tool_call_id, content, is_error: content.startsWith(OPENAI_TOOL_ERROR_PREFIX) });
    } else {
      const blocks: AssistantBlock[] = [];
      const said = text(m.content);
      if (said !== '') blocks.push({ type: 'text', text: said });
      for (const call of m.tool_calls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, ...parseToolArguments(call.function.arguments) });
      }
      messages.push({ role: 'assistant', content: blocks });
    }
  }
  const decoded: DecodedRequest = {
    wire: 'openai',
    model: body.model,
    messages,
    tools: (body.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description ?? '', input_schema: t.function.parameters ?? {} })),
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? null,
    stream: body.stream === true,
  };
  if (body.stream === true && body.stream_options?.include_usage === true) decoded.streamUsage = true;
  if (system.length > 0) decoded.system = system.join('\n');
  return decoded;
}
