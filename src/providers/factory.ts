/** One place that turns a provider name into a Model (CLI, suites, live runs). */
import { AnthropicModel } from './anthropic.js';
import { OpenAIModel } from './openai.js';
import type { MaxTokensParam } from './openai-mapping.js';
import type { Model } from './types.js';

export type ProviderName = 'anthropic' | 'openai';

export interface CreateModelOptions {
  provider: ProviderName;
  model: string;
  /** Falls back to the SDK's own environment lookup (ANTHROPIC_API_KEY / OPENAI_API_KEY). */
  apiKey?: string;
  /** Anthropic: host root (the SDK appends /v1/messages). OpenAI: up to /v1 (the SDK appends /chat/completions). */
  baseURL?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Strict tool use (default false): see dialects/index.ts. */
  strictTools?: boolean;
  /** Stream the response (SSE); default false. */
  stream?: boolean;
  /** OpenAI only: `max_tokens` for OpenAI-compatible servers that predate `max_completion_tokens`. */
  maxTokensParam?: MaxTokensParam;
}

export function createModel(options: CreateModelOptions): Model {
  const { provider, maxTokensParam, ...rest } = options;
  switch (provider) {
    case 'anthropic':
      return new AnthropicModel(rest);
    case 'openai':
      return new OpenAIModel({ ...rest, ...(maxTokensParam !== undefined ? { maxTokensParam } : {}) });
    default: {
      // Exhaustiveness: a new provider name must be handled here.
      const never: never = provider;
      throw new Error(`unknown provider: ${String(never)}`);
    }
  }
}
