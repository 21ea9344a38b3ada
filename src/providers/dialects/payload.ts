/**
 * The exact `tools` payload a wire receives, built by the same request
 * builders the adapters use (no second path, seed §3.2), with its size per
 * tool as sent (compact JSON, UTF-8). Used by `faultline schema`.
 */
import { toAnthropicParams } from '../anthropic-mapping.js';
import { toOpenAIParams } from '../openai-mapping.js';
import type { ToolDefinition } from '../types.js';
import type { DialectOptions, WireFamily } from './index.js';

export interface ToolsPayload {
  family: WireFamily;
  strict: boolean;
  /** The tools array exactly as it goes into the request body. */
  tools: unknown[];
  sizes: Array<{ name: string; bytes: number }>;
  /** Size of the whole `tools` array as sent (includes brackets and commas). */
  totalBytes: number;
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

export function toolsPayload(family: WireFamily, definitions: ToolDefinition[], options: DialectOptions = {}): ToolsPayload {
  const request = { messages: [], tools: definitions, maxTokens: 1 };
  const tools: unknown[] =
    family === 'anthropic'
      ? (toAnthropicParams('model', request, options).tools ?? [])
      : (toOpenAIParams('model', request, 'max_completion_tokens', options).tools ?? []);
  return {
    family,
    strict: options.strict ?? false,
    tools,
    sizes: tools.map((tool, i) => ({ name: definitions[i]!.name, bytes: bytes(tool) })),
    totalBytes: bytes(tools),
  };
}
