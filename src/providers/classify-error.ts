/**
 * Provider errors -> ModelCallError. The kind comes from the SDK error class
 * (connection / timeout) or the HTTP status, never from message text (docs/harness-rules.md#failure-kinds).
 * Both SDKs share the same class layout, so the adapters reduce their errors to
 * the neutral `ErrorFacts` below and this file decides.
 */
import type { ModelErrorKind } from '../events/labels.js';
import { ModelCallError } from './types.js';
import { connectionReason } from './connection-reason.js';
import { parseRetryAfterMs, type HeaderSource } from './retry-after.js';

export type ErrorFacts =
  | { transport: 'timeout' | 'connection'; message: string }
  | { transport: 'http'; status: number; headers: HeaderSource | null | undefined; message: string }
  /** An SDK error that is neither transport nor HTTP (e.g. a client-side check). */
  | { transport: 'other'; message: string };

/** The error classes both official SDKs export (the same generated layout). */
export interface SdkErrorClasses {
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIError: abstract new (...args: never[]) => Error & { status?: number | undefined; headers?: HeaderSource | null | undefined };
}

/** Reduce an SDK error to neutral facts by its class; never by message text. */
export function sdkErrorFacts(error: unknown, sdk: SdkErrorClasses): ErrorFacts {
  if (error instanceof sdk.APIConnectionTimeoutError) return { transport: 'timeout', message: error.message };
  // "Connection error." says nothing: the cause chain says refused, not found, ... and where.
  if (error instanceof sdk.APIConnectionError) return { transport: 'connection', message: connectionReason(error) ?? error.message };
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    return { transport: 'http', status: error.status, headers: error.headers, message: error.message };
  }
  return { transport: 'other', message: error instanceof Error ? error.message : String(error) };
}

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set([
  'rate_limited',
  'overloaded',
  'server_error',
  'timeout',
  'connection',
  'stream_interrupted',
]);

export function kindForStatus(status: number): ModelErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 529) return 'overloaded';
  if (status === 408) return 'timeout';
  if (status === 401 || status === 403) return 'auth';
  if (status === 400 || status === 404 || status === 413 || status === 422) return 'invalid_request';
  if (status >= 500 && status <= 599) return 'server_error';
  return 'unknown';
}

export function toModelCallError(facts: ErrorFacts, now: () => number = Date.now): ModelCallError {
  if (facts.transport === 'http') {
    const kind = kindForStatus(facts.status);
    const retryAfter = parseRetryAfterMs(facts.headers, now);
    const header = facts.headers?.get('x-should-retry') ?? null;
    const shouldRetry = header === 'true' ? true : header === 'false' ? false : null;
    return new ModelCallError(kind, facts.message, facts.status, retryAfter, RETRYABLE.has(kind), shouldRetry);
  }
  if (facts.transport === 'other') return new ModelCallError('unknown', facts.message, null, null, false);
  return new ModelCallError(facts.transport, facts.message, null, null, true);
}

/**
 * An error event inside a 200 stream carries only its `type` (Anthropic
 * `error.type`, OpenAI `error.type` / `error.code`): the kind comes from that
 * field. An unknown type is a broken stream, worth one more try.
 */
const KIND_OF_ERROR_TYPE: Readonly<Record<string, ModelErrorKind>> = {
  overloaded_error: 'overloaded',
  rate_limit_error: 'rate_limited',
  rate_limit_exceeded: 'rate_limited',
  api_error: 'server_error',
  server_error: 'server_error',
  invalid_request_error: 'invalid_request',
  request_too_large: 'invalid_request',
  not_found_error: 'invalid_request',
  authentication_error: 'auth',
  permission_error: 'auth',
};

export function streamErrorToModelCallError(type: string | null, message: string): ModelCallError {
  const kind = type !== null && Object.hasOwn(KIND_OF_ERROR_TYPE, type) ? (KIND_OF_ERROR_TYPE[type] as ModelErrorKind) : 'stream_interrupted';
  return new ModelCallError(kind, message, null, null, RETRYABLE.has(kind));
}

/** The stream stopped (connection dropped, or ended without its final event). The whole request must be retried. */
export function streamInterrupted(message: string): ModelCallError {
  return new ModelCallError('stream_interrupted', message, null, null, true);
}
