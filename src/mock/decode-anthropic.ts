/**
 * Anthropic Messages request body -> neutral request. Schemas are loose (extra
 * fields pass, as the real API ignores what it does not check here) but the
 * parts the mock relies on must have the right shape.
 */
import { z } from 'zod';
import type { AssistantBlock, Message, UserBlock } from '../providers/types.js';
import { decodeFailure, type DecodeResult, type DecodedRequest } from './decoded-request.js';

const TextPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const ToolUse = z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const ToolResult = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  is_error: z.boolean().optional(),
});
const KNOWN = new Set(['text', 'tool_use', 'tool_result']);
// Other block types (images, documents, ...) pass through unchecked; the three the mock reads must be well-formed.
const OtherBlock = z.looseObject({ type: z.string() }).refine((b) => !KNOWN.has(b.type), { message: 'malformed content block' });
const Block = z.union([TextPart, ToolUse, ToolResult, OtherBlock]);

const WireMessage = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(Block)]),
});
export type AnthropicWireMessage = z.infer<typeof WireMessage>;

export const AnthropicBody = z.looseObject({
  model: z.string(),
  max_tokens: z.number().int(),
  messages: z.array(WireMessage),
  system: z.union([z.string(), z.array(TextPart)]).optional(),
  tools: z.array(z.looseObject({ name: z.string(), description: z.string().optional(), input_schema: z.record(z.string(), z.unknown()) })).optional(),
  stream: z.boolean().optional(),
});
export type AnthropicBody = z.infer<typeof AnthropicBody>;

export function parseAnthropicBody(json: unknown): DecodeResult<AnthropicBody> {
  const parsed = AnthropicBody.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : decodeFailure(parsed.error.issues);
}

type Block = z.infer<typeof Block>;

function resultText(content: z.infer<typeof ToolResult>['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((p) => (p.type === 'text' && p.text !== undefined ? [p.text] : [])).join('');
}

function blocks(content: string | Block[]): Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function toNeutralMessage(message: AnthropicWireMessage): Message {
  if (message.role === 'assistant') {
    const content: AssistantBlock[] = [];
    for (const b of blocks(message.content)) {
      const text = TextPart.safeParse(b);
      if (text.success) content.push({ type: 'text', text: text.data.text });
      const use = ToolUse.safeParse(b);
      if (use.success) {
        const input = use.data.input;
        const obj = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
        content.push({ type: 'tool_use', id: use.data.id, name: use.data.name, input: obj });
      }
    }
    return { role: 'assistant', content };
  }
  const content: UserBlock[] = [];
  for (const b of blocks(message.content)) {
    const text = TextPart.safeParse(b);
    if (text.success) content.push({ type: 'text', text: text.data.text });
    const result = ToolResult.safeParse(b);
    if (result.success) {
      const r = result.data;
      content.push({ type: 'tool_result', tool_use_id: r.tool_use_id, content: resultText(r.content), is_error: r.is_error === true });
    }
  }
  return { role: 'user', content };
}

export function decodeAnthropic(body: AnthropicBody): DecodedRequest {
  const decoded: DecodedRequest = {
    wire: 'anthropic',
    model: body.model,
    messages: body.messages.map(toNeutralMessage),
    tools: (body.tools ?? []).map((t) => ({ name: t.name, description: t.description ?? '', input_schema: t.input_schema })),
    maxTokens: body.max_tokens,
    stream: body.stream === true,
  };
  if (body.system !== undefined) decoded.system = typeof body.system === 'string' ? body.system : body.system.map((p) => p.text).join('\n');
  return decoded;
}
