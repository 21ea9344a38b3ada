/** What every SDK adapter is configured with (one definition for both wires and the factory). */
import type { Dispatcher } from 'undici';
import { CALLER_SIGNAL } from './caller-signal.js';

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
  /**
   * Where fetch gets its connections when there is no custom `fetch` (its `dispatcher`): default fetch's global
   * pool. The suite runner gives one bounded by the process's descriptor budget (suites/connection-pool.ts).
   */
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  /** Strict tool use: the wire's strict schema subset plus `strict: true` on each tool (default false, see dialects/index.ts). */
  strictTools?: boolean;
  /** Stream the response (SSE). Default false. */
  stream?: boolean;
  /** Clock for time to first token (ms). */
  now?: () => number;
  /** Streaming: longest wait for the next data before the call fails as `timeout` (default 120 s). */
  streamIdleTimeoutMs?: number;
  /** Anthropic: send prompt-cache breakpoints (cache_control) on the stable prefix and the conversation (default true; other wires cache automatically). */
  promptCache?: boolean;
  /** Longest wait for the response to start (headers, or the first stream event when streaming) before the call fails as `timeout`; default none beyond `timeoutMs`. */
  firstByteTimeoutMs?: number;
  /** Extra headers sent with every request of this model (the mock routes sessions by one). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Anthropic: false turns off the SDK's OpenTelemetry instrumentation (its `openTelemetry: false`);
   * default as the SDK decides (on, through the global OpenTelemetry API, unless ANTHROPIC_OPEN_TELEMETRY=false).
   */
  sdkTelemetry?: boolean;
  /**
   * The custom `fetch` follows the call's abort signal given in its init under CALLER_SIGNAL (caller-signal.ts): the
   * SDK is then not given the signal. Only for a fetch that does (the in-process mock's); ignored without `fetch`.
   */
  fetchFollowsSignal?: boolean;
}

/**
 * Client options both official SDKs take in the same shape. Retries are off:
 * the harness retries itself (loop/model-call.ts), so each attempt is logged.
 * The dispatcher goes in the SDKs' `fetchOptions` (both pass it to every fetch).
 */
export function sdkClientOptions(options: AdapterOptions): {
  apiKey?: string;
  baseURL?: string;
  fetch?: typeof fetch;
  fetchOptions?: { dispatcher: Dispatcher };
  maxRetries: 0;
  timeout: number;
} {
  return {
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : options.dispatcher !== undefined ? { fetchOptions: { dispatcher: options.dispatcher } } : {}),
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}

/** Init members the SDKs pass through to `fetch` (their MergedRequestInit: none of the members they set themselves). */
type PassedInit = { headers?: never; signal?: never; body?: never; method?: never };
type RequestOptions = { signal?: AbortSignal; headers?: Readonly<Record<string, string>>; fetchOptions?: PassedInit };

/**
 * Per-request options of either SDK: the call's signal and the model's headers, each only when there is one.
 * `viaFetch`: the signal goes to the custom fetch in its init (caller-signal.ts), not to the SDK.
 */
export function requestOptionsOf(signal: AbortSignal | undefined, headers: Readonly<Record<string, string>> | undefined, viaFetch = false): RequestOptions | undefined {
  if (signal === undefined) return headers === undefined ? undefined : { headers };
  if (viaFetch) {
    const fetchOptions = { [CALLER_SIGNAL]: signal } as PassedInit;
    return headers === undefined ? { fetchOptions } : { headers, fetchOptions };
  }
  return headers === undefined ? { signal } : { signal, headers };
}

/** Size of a value as it goes on the wire (compact JSON, UTF-8). */
export function byteLength(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * One SDK client per distinct client configuration, shared by every model
 * built with it. A client holds only its configuration (the HTTP connection
 * pool is fetch's), yet constructing one builds every resource object of the
 * SDK, ~0.5 ms: at thousands of sessions a run that was real time. Models of
 * one configuration differ only in per-request things (model name, headers,
 * signal), which go with each request. A custom `fetch` and a dispatcher
 * are part of the key by identity. Only clients given an explicit key and
 * base URL are shared.
 */
export function sharedClient<C>(make: (options: ReturnType<typeof sdkClientOptions>) => C, cache: Map<string, C>, options: AdapterOptions): C {
  // Without an explicit key and base URL the SDK reads them from the environment when built: never share those.
  if (options.apiKey === undefined || options.baseURL === undefined) return make(sdkClientOptions(options));
  // The key from the options themselves: the client's options object is built only for a new client (a model per session).
  const key = JSON.stringify([options.apiKey, options.baseURL, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, objectId(options.fetch), objectId(options.dispatcher), options.sdkTelemetry ?? null]);
  let client = cache.get(key);
  if (client === undefined) {
    client = make(sdkClientOptions(options));
    // Bounded: a process that builds models for ever-new base URLs must not keep every client.
    if (cache.size >= 256) cache.delete(cache.keys().next().value as string);
    cache.set(key, client);
  }
  return client;
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;
/** A number per object (a custom fetch, a dispatcher) for the client key: clients differ by them. */
function objectId(o: object | undefined): number | null {
  if (o === undefined) return null;
  let id = objectIds.get(o);
  if (id === undefined) objectIds.set(o, (id = ++nextObjectId));
  return id;
}
