/** One place that turns a provider name into a Model (CLI, suites, live runs). */
import type { AdapterOptions } from './adapter-options.js';
import { AnthropicModel } from './anthropic.js';
import { GeminiModel } from './gemini.js';
import { OpenAIModel } from './openai.js';
import { OpenAIResponsesModel } from './openai-responses.js';
import type { MaxTokensParam } from './openai-mapping.js';
import type { Model } from './types.js';

/** `openai` is Chat Completions; `openai-responses` the Responses API, on the same `openai` client. */
export type ProviderName = 'anthropic' | 'openai' | 'openai-responses' | 'gemini';

export interface CreateModelOptions extends Omit<AdapterOptions, 'now'> {
  provider: ProviderName;
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
    case 'openai-responses':
      return new OpenAIResponsesModel(rest);
    case 'gemini':
      return new GeminiModel(rest);
    default: {
      // Exhaustiveness: a new provider name must be handled here.
      const never: never = provider;
      throw new Error(`unknown provider: ${String(never)}`);
    }
  }
}
