/**
 * @google/genai errors -> ModelCallError. The SDK throws `ApiError` (with
 * `status`) for an HTTP error and for an error object inside a stream; its
 * message is the API's JSON error body (after a `got status: ...` prefix in a
 * stream). The back-off hint is not a header on this API: it is the
 * `google.rpc.RetryInfo` detail's `retryDelay` (a Duration, `"27s"`), read
 * here as retryAfterMs. The kind comes from the status, never from text.
 * Anything else the fetch throws is the connection (or the SDK's own
 * per-attempt timeout).
 */
import { loadedGeminiSdk } from './gemini-sdk.js';
import { kindForStatus } from './classify-error.js';
import { connectionReason } from './connection-reason.js';
import { ModelCallError } from './types.js';

const RETRYABLE_KINDS: ReadonlySet<string> = new Set(['rate_limited', 'overloaded', 'server_error', 'timeout']);

/** `"27s"`, `"0.200s"` -> ms; null when it is not a Duration. */
export function durationMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return m ? Math.round(Number(m[1]) * 1000) : null;
}

/** The RetryInfo delay in an error body's text, if any. */
export function retryDelayMs(messageText: string): number | null {
  const start = messageText.indexOf('{');
  if (start === -1) return null;
  try {
    const body = JSON.parse(messageText.slice(start)) as { error?: { details?: Array<Record<string, unknown>> } };
    const info = body.error?.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');
    return info ? durationMs(info['retryDelay']) : null;
  } catch {
    return null;
  }
}

export function geminiCallError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof ModelCallError) return error;
  // The SDK is loaded by now: only a call through its client gets here.
  const ApiError = loadedGeminiSdk()?.ApiError;
  if (ApiError !== undefined && error instanceof ApiError) {
    // By status, as on every wire: the API's overload (503 UNAVAILABLE, it has no 529) reads as a 503 does anywhere.
    const kind = kindForStatus(error.status);
    const delay = retryDelayMs(error.message);
    return new ModelCallError(kind, error.message, error.status, delay !== null && delay > 0 ? delay : null, RETRYABLE_KINDS.has(kind));
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return new ModelCallError('timeout', `the request timed out: ${(error as Error).message}`, null, null, true);
  const message = error instanceof Error ? error.message : String(error);
  return new ModelCallError('connection', connectionReason(error) ?? message, null, null, true);
}
