/** The REAL adapter for a wire, pointed at a mock base URL (shared by the msw and loopback mounts); all four adapters loaded. */
import { AnthropicModel } from '../providers/anthropic.js';
import { GeminiModel } from '../providers/gemini.js';
import { OpenAIModel } from '../providers/openai.js';
import { OpenAIResponsesModel } from '../providers/openai-responses.js';
import type { Model } from '../providers/types.js';
import { wireAdapter, type MockAdapterOptions, type WireModels } from './wire-adapter.js';

export type { MockAdapterOptions };

const ALL: WireModels = { anthropic: AnthropicModel, gemini: GeminiModel, openai: OpenAIModel, responses: OpenAIResponsesModel };

export function mockAdapter(options: MockAdapterOptions): Model {
  return wireAdapter(options, ALL);
}
