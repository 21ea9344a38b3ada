/**
 * Provider errors -> ModelCallError. The kind comes from the SDK error class
 * (connection / timeout) or the HTTP status, never from message text (§5.7).
 * Both SDKs share the same class layout, so the adapters reduce their errors to
 * the neutral `ErrorFacts` below and this file decides.
 */
import type { ModelErrorKind } from '../events/labels.js';
import { ModelCallError } from './types.js';
import { parseRetryAfterMs, type HeaderSource } from './retry-after.js';

export type ErrorFacts =
  | { transport: 'timeout' | 'connection'; message: string }
  | { transport: 'http'; status: number; headers: HeaderSource | null | undefined; message: string }
  /** An SDK error that is neither transport nor HTTP (e.g. a client-side check). */
  | { transport: 'other'; message: string };

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
    return new ModelCallError(kind, facts.message, facts.status, retryAfter, RETRYABLE.has(kind));
  }
  if (facts.transport === 'other') return new ModelCallError('unknown', facts.message, null, null, false);
  return new ModelCallError(facts.transport, facts.message, null, null, true);
}
