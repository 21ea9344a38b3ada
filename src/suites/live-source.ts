/**
 * Live providers as a ModelSource: every session gets a fresh adapter on the
 * official SDK, pointed at the real API or at any base URL. The code path is
 * the one the mock uses (same adapters, same mapping, same dialects); only
 * the base URL and the key differ, so a local server standing in for the
 * provider tests exactly what runs against the real API.
 */
import { createModel, type ProviderName } from '../providers/factory.js';
import { loadGeminiSdk } from '../providers/gemini-sdk.js';
import { connectionPool } from './connection-pool.js';
import type { ModelSource } from './model-source.js';

/** `openai` speaks Chat Completions, `openai-responses` the Responses API (same key). */
export type LiveProvider = 'anthropic' | 'openai' | 'openai-responses' | 'openai-compatible' | 'gemini';

export const LIVE_PROVIDERS: readonly LiveProvider[] = ['anthropic', 'openai', 'openai-responses', 'openai-compatible', 'gemini'];

/**
 * Where each provider's key comes from. An OpenAI-compatible server (vLLM,
 * Ollama, LM Studio) gets its own variable, optional: OPENAI_API_KEY is never
 * sent to a host that is not OpenAI's.
 */
export const KEY_VARIABLE: Record<LiveProvider, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
  'openai-compatible': 'OPENAI_COMPATIBLE_API_KEY',
  // The Gemini API's key variable, as Google's docs and @google/genai name it.
  gemini: 'GEMINI_API_KEY',
};

/**
 * A base URL from the environment, where the provider's SDK reads one: the
 * CLI's env is passed explicitly (a test's env is not process.env), so the
 * variable the SDK would read is read here. @google/genai reads
 * GOOGLE_GEMINI_BASE_URL; the other SDKs read theirs from process.env.
 */
const BASE_URL_VARIABLE: Partial<Record<LiveProvider, string>> = { gemini: 'GOOGLE_GEMINI_BASE_URL' };

export interface LiveSourceOptions {
  provider: LiveProvider;
  model: string;
  /** Anthropic: host root. OpenAI / compatible: up to `/v1`. Required for openai-compatible. */
  baseURL?: string;
  /** Where keys are read from (the CLI passes its io.env). */
  env: NodeJS.ProcessEnv;
  /** Strict tool use (default false): see providers/dialects/index.ts. */
  strictTools?: boolean;
  /** Stream responses (SSE), as production harnesses do; default false. */
  stream?: boolean;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** A live run that cannot start: missing key, model or base URL. Carries what to do. */
export class LiveSourceError extends Error {
  readonly code = 'LIVE_SOURCE_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'LiveSourceError';
  }
}

/** Placeholder for servers that want no key: the SDK refuses to start without one. */
const NO_KEY = 'no-key';

function resolveKey(options: LiveSourceOptions): string {
  const variable = KEY_VARIABLE[options.provider];
  const key = options.env[variable];
  if (key !== undefined && key !== '') return key;
  if (options.provider === 'openai-compatible') return NO_KEY;
  throw new LiveSourceError(`${variable} is not set: export ${variable}=... to run --provider ${options.provider} (or use --provider mock, or --replay <dir>)`);
}

/** Checks the configuration up front (before any session starts) and returns the source. */
export function liveModelSource(options: LiveSourceOptions): ModelSource {
  if (options.model.trim() === '') throw new LiveSourceError(`--model is required with --provider ${options.provider}`);
  if (options.provider === 'openai-compatible' && !options.baseURL) {
    throw new LiveSourceError('--base-url is required with --provider openai-compatible (e.g. http://127.0.0.1:11434/v1 for Ollama)');
  }
  const apiKey = resolveKey(options);
  const provider: ProviderName = options.provider === 'openai-compatible' ? 'openai' : options.provider;
  const baseURL = options.baseURL || (BASE_URL_VARIABLE[options.provider] !== undefined ? options.env[BASE_URL_VARIABLE[options.provider]!] : undefined);
  return {
    provider: options.provider,
    modelName: options.model,
    transport: () => 'live',
    async open(task) {
      // The gemini SDK is an optional peer: a missing one fails here, with the install command, not inside the first call.
      if (provider === 'gemini') await loadGeminiSdk();
      const model = createModel({
        provider,
        model: options.model,
        apiKey,
        ...(baseURL ? { baseURL } : {}),
        // The connections, counted in the descriptor budget (connection-pool.ts); a given fetch brings its own.
        ...(options.fetch ? { fetch: options.fetch } : { dispatcher: connectionPool(baseURL || undefined) }),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.strictTools !== undefined ? { strictTools: options.strictTools } : {}),
        ...(options.stream !== undefined ? { stream: options.stream } : {}),
        ...(task.prompt_cache !== undefined ? { promptCache: task.prompt_cache } : {}),
        ...(task.stream_idle_timeout_ms !== undefined ? { streamIdleTimeoutMs: task.stream_idle_timeout_ms } : {}),
        ...(task.first_byte_timeout_ms !== undefined ? { firstByteTimeoutMs: task.first_byte_timeout_ms } : {}),
        // Compatible servers (vLLM, Ollama, LM Studio) know `max_tokens`; not all know `max_completion_tokens`.
        ...(options.provider === 'openai-compatible' ? { maxTokensParam: 'max_tokens' as const } : {}),
      });
      return { model, close: () => undefined };
    },
  };
}
