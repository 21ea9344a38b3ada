/**
 * The exact `tools` payload a wire receives, built by the same request
 * builders the adapters use (no second path, docs/harness-rules.md#descriptions), with its size per
 * tool as sent (compact JSON, UTF-8). Used by `faultline schema`.
 */
import { toAnthropicParams } from '../anthropic-mapping.js';
import { toGeminiParams } from '../gemini-mapping.js';
import { toOpenAIParams } from '../openai-mapping.js';
import { toResponsesParams } from '../openai-responses-mapping.js';
import type { ToolDefinition } from '../types.js';
import type { DialectOptions } from './index.js';

/** The wires a tools payload is built for (Responses shares the OpenAI schema family, in its own flat tool shape). */
export type PayloadWire = 'anthropic' | 'openai' | 'responses' | 'gemini';

export interface ToolsPayload {
  family: PayloadWire;
  strict: boolean;
  /** The tools array exactly as it goes into the request body. */
  tools: unknown[];
  sizes: Array<{ name: string; bytes: number }>;
  /** Size of the whole `tools` array as sent (includes brackets and commas). */
  totalBytes: number;
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

export function toolsPayload(family: PayloadWire, definitions: ToolDefinition[], options: DialectOptions = {}): ToolsPayload {
  const request = { messages: [], tools: definitions, maxTokens: 1 };
  // Gemini sends one Tool holding every function declaration: the declarations are the per-tool payload.
  const gemini = (): unknown[] => ((toGeminiParams('model', request).config?.tools?.[0] as { functionDeclarations?: unknown[] } | undefined)?.functionDeclarations ?? []);
  const tools: unknown[] =
    family === 'gemini'
      ? gemini()
      : family === 'anthropic'
      ? (toAnthropicParams('model', request, options).tools ?? [])
      : family === 'openai'
        ? (toOpenAIParams('model', request, 'max_completion_tokens', options).tools ?? [])
        : (toResponsesParams('model', request, options).tools ?? []);
  return {
    family,
    strict: options.strict ?? false,
    tools,
    sizes: tools.map((tool, i) => ({ name: definitions[i]!.name, bytes: bytes(tool) })),
    totalBytes: bytes(tools),
  };
}
