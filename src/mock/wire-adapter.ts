/**
 * The REAL adapter for a wire, pointed at a mock base URL, made from the
 * adapter classes given: mock-adapter.ts passes all four (loaded with it),
 * loadMockAdapter only the one a wire needs, so a run on the Anthropic wire
 * never loads or compiles the `openai` SDK (about a third of the SDK code).
 */
import type { AnthropicModel } from '../providers/anthropic.js';
import type { GeminiModel } from '../providers/gemini.js';
import type { OpenAIModel } from '../providers/openai.js';
import type { OpenAIResponsesModel } from '../providers/openai-responses.js';
import type { Model } from '../providers/types.js';
import type { Dispatcher } from 'undici';
import type { Wire } from './wire-errors.js';

export interface MockAdapterOptions {
  wire: Wire;
  baseURL: string;
  model?: string;
  /** Stream the responses (SSE). Default false. */
  stream?: boolean;
  fetch?: typeof fetch;
  /** Where fetch gets its connections (no custom `fetch`): see AdapterOptions.dispatcher. */
  dispatcher?: Dispatcher;
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

/** The adapter class of each wire (only the wire's own needs to be there). */
export interface WireModels {
  anthropic?: typeof AnthropicModel;
  gemini?: typeof GeminiModel;
  openai?: typeof OpenAIModel;
  responses?: typeof OpenAIResponsesModel;
}

export function wireAdapter(options: MockAdapterOptions, models: WireModels): Model {
  const common = {
    apiKey: 'mock-key',
    baseURL: options.baseURL,
    stream: options.stream ?? false,
    // No SDK spans for calls to the scripted mock: they describe a fake endpoint, and starting and
    // ending one (even a no-op span when no tracer provider is registered) was ~10 us of every call.
    sdkTelemetry: false,
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}),
    ...(options.fetchFollowsSignal !== undefined ? { fetchFollowsSignal: options.fetchFollowsSignal } : {}),
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.streamIdleTimeoutMs !== undefined ? { streamIdleTimeoutMs: options.streamIdleTimeoutMs } : {}),
    ...(options.strictTools !== undefined ? { strictTools: options.strictTools } : {}),
    ...(options.firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: options.firstByteTimeoutMs } : {}),
  };
  const model = <T>(made: T | undefined): T => {
    if (made === undefined) throw new Error(`the ${options.wire} adapter was not loaded (loadMockAdapter loads it)`);
    return made;
  };
  if (options.wire === 'anthropic' && options.promptCache !== undefined) return new (model(models.anthropic))({ ...common, promptCache: options.promptCache, model: options.model ?? 'mock-claude' });
  if (options.wire === 'anthropic') return new (model(models.anthropic))({ ...common, model: options.model ?? 'mock-claude' });
  if (options.wire === 'gemini') return new (model(models.gemini))({ ...common, model: options.model ?? 'gemini-mock' });
  if (options.wire === 'openai') return new (model(models.openai))({ ...common, model: options.model ?? 'mock-gpt' });
  return new (model(models.responses))({ ...common, model: options.model ?? 'mock-gpt' });
}

/** The adapter classes `wire` needs, loaded on first use (each module once: import() caches it). */
export async function loadWireModels(wire: Wire): Promise<WireModels> {
  switch (wire) {
    case 'anthropic':
      return { anthropic: (await import('../providers/anthropic.js')).AnthropicModel };
    case 'gemini':
      return { gemini: (await import('../providers/gemini.js')).GeminiModel };
    case 'openai':
      return { openai: (await import('../providers/openai.js')).OpenAIModel };
    case 'responses':
      return { responses: (await import('../providers/openai-responses.js')).OpenAIResponsesModel };
  }
}

export type WireAdapter = (options: Omit<MockAdapterOptions, 'wire'>) => Model;

const loaded = new Map<Wire, WireAdapter>();

/** mockAdapter with only `wire`'s adapter and SDK loaded (kept per process: a session does not pay for an import()). */
export async function loadMockAdapter(wire: Wire): Promise<WireAdapter> {
  return loaded.get(wire) ?? (await loadAdapter(wire));
}

/** The wire's adapter if it was loaded already (synchronous callers), else undefined. */
export function loadedMockAdapter(wire: Wire): WireAdapter | undefined {
  return loaded.get(wire);
}

async function loadAdapter(wire: Wire): Promise<WireAdapter> {
  const models = await loadWireModels(wire);
  const adapter: WireAdapter = (options) => wireAdapter({ ...options, wire }, models);
  loaded.set(wire, adapter);
  return adapter;
}
