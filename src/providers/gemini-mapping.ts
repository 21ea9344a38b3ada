/**
 * Neutral messages <-> Gemini generateContent shapes (field names as in
 * @google/genai: `contents`, `parts`, `functionCall`, `functionResponse`,
 * `finishReason`, `usageMetadata`). The system prompt is
 * `config.systemInstruction`; an assistant message is a `model` content
 * (text parts, then one functionCall part per tool_use, its `id` kept so the
 * API can pair the answer); a user message is a `user` content with one
 * functionResponse part per tool_result (`response: {output}` or, for an
 * error, `{error}`: the convention the API's docs and Gemini CLI use, this
 * wire has no is_error) and then its text. Tools go as one Tool with
 * `functionDeclarations`, `parameters` in the Gemini dialect.
 */
import type { Content, FunctionDeclaration, GenerateContentParameters, GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { toolSchemaFor } from './dialects/index.js';
import { classifyGeminiStop } from './stop-class.js';
import { checkToolInput } from './tool-arguments.js';
import type { AssistantBlock, Message, ModelRequest, ModelResponse, ToolDefinition, Usage } from './types.js';

function toContent(message: Message, names: Map<string, string>): Content {
  if (message.role === 'assistant') {
    const parts: Part[] = [];
    for (const b of message.content) {
      if (b.type === 'text' && b.text !== '') parts.push({ text: b.text });
      if (b.type === 'tool_use') {
        names.set(b.id, b.name);
        parts.push({ functionCall: { id: b.id, name: b.name, args: b.input } });
      }
    }
    // A turn with nothing to show still takes its place: the API refuses empty parts.
    return { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] };
  }
  const parts: Part[] = [];
  for (const b of message.content) {
    if (b.type !== 'tool_result') continue;
    parts.push({ functionResponse: { id: b.tool_use_id, name: names.get(b.tool_use_id) ?? 'unknown', response: b.is_error ? { error: b.content } : { output: b.content } } });
  }
  for (const b of message.content) if (b.type === 'text') parts.push({ text: b.text });
  return { role: 'user', parts: parts.length > 0 ? parts : [{ text: '' }] };
}

function toDeclaration(tool: ToolDefinition): FunctionDeclaration {
  return { name: tool.name, description: tool.description, parameters: toolSchemaFor('gemini', tool.input_schema) as FunctionDeclaration['parameters'] };
}

export function toGeminiParams(model: string, request: ModelRequest): GenerateContentParameters {
  const names = new Map<string, string>();
  const contents = request.messages.map((m) => toContent(m, names));
  const config: NonNullable<GenerateContentParameters['config']> = { maxOutputTokens: request.maxTokens };
  if (request.system !== undefined && request.system !== '') config.systemInstruction = request.system;
  if (request.tools.length > 0) config.tools = [{ functionDeclarations: request.tools.map(toDeclaration) }];
  return { model, contents, config };
}

/** The body as it goes on the wire (for sizes): what the SDK sends for these parameters. */
export function geminiWireBody(params: GenerateContentParameters): Record<string, unknown> {
  const config = params.config ?? {};
  const body: Record<string, unknown> = { contents: params.contents };
  if (config.systemInstruction !== undefined) body['systemInstruction'] = { parts: [{ text: config.systemInstruction }] };
  if (config.tools !== undefined) body['tools'] = config.tools;
  body['generationConfig'] = { maxOutputTokens: config.maxOutputTokens };
  return body;
}

/** Usage in the neutral form: the prompt count includes the cached part; thinking is output. */
export function geminiUsage(usage: GenerateContentResponseUsageMetadata | undefined): Usage {
  const cached = usage?.cachedContentTokenCount ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.promptTokenCount ?? 0) - cached),
    output_tokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
    cache_read_tokens: cached,
    cache_write_tokens: 0,
  };
}

/** The raw stop reason: the candidate's finishReason, or the prompt's blockReason when no candidate came. */
export function geminiStopReason(response: Pick<GenerateContentResponse, 'candidates' | 'promptFeedback'>): string | null {
  const candidate = response.candidates?.[0];
  if (candidate?.finishReason !== undefined) return candidate.finishReason;
  if (!candidate && response.promptFeedback?.blockReason !== undefined) return `PROMPT_${response.promptFeedback.blockReason}`;
  return null;
}

/** The content of one response (or one stream chunk): text, then the calls (ids from the API, or made). */
export function geminiBlocks(response: Pick<GenerateContentResponse, 'candidates'>, makeId: () => string): AssistantBlock[] {
  const out: AssistantBlock[] = [];
  for (const part of response.candidates?.[0]?.content?.parts ?? []) {
    if (typeof part.text === 'string' && part.text !== '' && part.thought !== true) out.push({ type: 'text', text: part.text });
    const call = part.functionCall;
    if (call) out.push({ type: 'tool_use', id: call.id ?? makeId(), name: call.name ?? '', ...checkToolInput(call.args ?? {}) });
  }
  return out;
}

/** Text blocks merged into one, first; calls after, in order. */
export function mergeBlocks(blocks: AssistantBlock[]): AssistantBlock[] {
  const text = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const calls = blocks.filter((b) => b.type === 'tool_use');
  return text === '' ? calls : [{ type: 'text', text }, ...calls];
}

export function fromGeminiResponse(response: GenerateContentResponse, makeId: () => string): Omit<ModelResponse, 'ttftMs'> {
  const content = mergeBlocks(geminiBlocks(response, makeId));
  const stopReason = geminiStopReason(response);
  return { content, stopReason, stopClass: classifyGeminiStop(stopReason, content.some((b) => b.type === 'tool_use')), usage: geminiUsage(response.usageMetadata) };
}
