/** What every SDK adapter is configured with (one definition for both wires and the factory). */
export const DEFAULT_TIMEOUT_MS = 300_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

export interface AdapterOptions {
  model: string;
  /** Falls back to the SDK's own environment lookup (ANTHROPIC_API_KEY / OPENAI_API_KEY). */
  apiKey?: string;
  /** Anthropic: host root (the SDK appends /v1/messages). OpenAI: up to /v1 (the SDK appends /chat/completions). */
  baseURL?: string;
  /** Custom fetch (tests, proxies). */
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Strict tool use: the wire's strict schema subset plus `strict: true` on each tool (default false, see dialects/index.ts). */
  strictTools?: boolean;
  /** Stream the response (SSE). Default false. */
  stream?: boolean;
  /** Clock for time to first token (ms). */
  now?: () => number;
  /** Streaming: longest wait for the next data before the call fails as `timeout` (default 120 s). */
  streamIdleTimeoutMs?: number;
}

/**
 * Client options both official SDKs take in the same shape. Retries are off:
 * the harness retries itself (loop/model-call.ts), so each attempt is logged.
 */
export function sdkClientOptions(options: AdapterOptions): { apiKey?: string; baseURL?: string; fetch?: typeof fetch; maxRetries: 0; timeout: number } {
  return {
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}

/** Size of a value as it goes on the wire (compact JSON, UTF-8). */
export function byteLength(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}
