/** The REAL adapter for a wire, pointed at a mock base URL (shared by the msw and loopback mounts). */
import { AnthropicModel } from '../providers/anthropic.js';
import { GeminiModel } from '../providers/gemini.js';
import { OpenAIModel } from '../providers/openai.js';
import { OpenAIResponsesModel } from '../providers/openai-responses.js';
import type { Model } from '../providers/types.js';
import type { Wire } from './wire-errors.js';

export interface MockAdapterOptions {
  wire: Wire;
  baseURL: string;
  model?: string;
  /** Stream the responses (SSE). Default false. */
  stream?: boolean;
  fetch?: typeof fetch;
  /** Sent with every request (the loopback server routes sessions by SESSION_HEADER). */
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  streamIdleTimeoutMs?: number;
  /** Strict tool use: the wire's strict schema subset plus `strict: true` (default false). */
  strictTools?: boolean;
  firstByteTimeoutMs?: number;
  /** Anthropic prompt-cache breakpoints (default on). */
  promptCache?: boolean;
  /** `fetch` follows the call's signal itself (the in-process mock's: see providers/caller-signal.ts). */
  fetchFollowsSignal?: boolean;
}

export function mockAdapter(options: MockAdapterOptions): Model {
  const common = {
    apiKey: 'mock-key',
    baseURL: options.baseURL,
    stream: options.stream ?? false,
    // No SDK spans for calls to the scripted mock: they describe a fake endpoint, and starting and
    // ending one (even a no-op span when no tracer provider is registered) was ~10 us of every call.
    sdkTelemetry: false,
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.fetchFollowsSignal !== undefined ? { fetchFollowsSignal: options.fetchFollowsSignal } : {}),
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.streamIdleTimeoutMs !== undefined ? { streamIdleTimeoutMs: options.streamIdleTimeoutMs } : {}),
    ...(options.strictTools !== undefined ? { strictTools: options.strictTools } : {}),
    ...(options.firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: options.firstByteTimeoutMs } : {}),
  };
  if (options.wire === 'anthropic' && options.promptCache !== undefined) return new AnthropicModel({ ...common, promptCache: options.promptCache, model: options.model ?? 'mock-claude' });
  if (options.wire === 'anthropic') return new AnthropicModel({ ...common, model: options.model ?? 'mock-claude' });
  if (options.wire === 'gemini') return new GeminiModel({ ...common, model: options.model ?? 'gemini-mock' });
  if (options.wire === 'openai') return new OpenAIModel({ ...common, model: options.model ?? 'mock-gpt' });
  return new OpenAIResponsesModel({ ...common, model: options.model ?? 'mock-gpt' });
}
