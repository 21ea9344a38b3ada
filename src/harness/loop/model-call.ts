/**
 * One model turn with the harness's retries (SDK retries stay off, docs/architecture.md#dependency-notes):
 * bounded attempts, exponential backoff with jitter, the server's
 * `retry-after-ms` / `retry-after` honoured, `x-should-retry` obeyed, and
 * 400/401/403/404/413 never retried. A stream that fails mid-way is a failed
 * attempt: its partial turn is discarded and the whole request is sent again.
 * Every failed attempt is one `model_error` event. An abort stops waiting at
 * once (during the call or the back-off).
 */
import type { SessionEmitter } from '../../events/emitter.js';
import { DEFAULT_RETRY_CONFIG, type RetryConfig } from '../config.js';
import { ModelCallError, type CompleteOptions, type Model, type ModelRequest, type ModelResponse } from '../../providers/types.js';

/** Client errors a retry cannot fix: the same request gets the same answer. */
const NEVER_RETRY: ReadonlySet<number> = new Set([400, 401, 403, 404, 413]);

export interface ModelCallDeps {
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

export const REAL_DEPS: ModelCallDeps = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    }),
  random: Math.random,
};

export interface ModelCallOptions {
  model: Model;
  request: ModelRequest & { signal: AbortSignal };
  turn: number;
  emitter: SessionEmitter;
  retry?: Partial<RetryConfig>;
  deps?: Partial<ModelCallDeps>;
  /** Passed to the adapter; blocks reported by a failed attempt are superseded by the retry's (see CompleteOptions). */
  onToolUse?: CompleteOptions['onToolUse'];
  /** Called before each retry, so a streaming consumer can drop what the failed attempt reported. */
  onRetry?(attempt: number): void;
  /** Clock (ms) for `startedAt`; default performance.now. */
  now?: () => number;
}

export type ModelCallResult =
  /** `startedAt`: when the successful attempt began, so its duration excludes failed attempts and back-off. */
  | { ok: true; response: ModelResponse; attempts: number; startedAt: number }
  | { ok: false; aborted: true; attempts: number }
  | { ok: false; aborted: false; error: ModelCallError; attempts: number };

/** Whether to try again after `error` (attempt limits aside). */
export function isRetryable(error: ModelCallError): boolean {
  if (error.status !== null && NEVER_RETRY.has(error.status)) return false;
  if (error.shouldRetry !== null) return error.shouldRetry;
  return error.retryable;
}

/** Back-off before attempt `attempt + 1`: the server's hint when sane, else exponential with jitter. */
export function backoffMs(attempt: number, hintMs: number | null, config: RetryConfig, random: () => number): number {
  if (hintMs !== null && hintMs >= 0 && hintMs <= config.maxRetryAfterMs) return hintMs;
  const exponential = Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (1 - config.jitter * random()));
}

const defaultNow = () => performance.now();

export async function callModel(options: ModelCallOptions): Promise<ModelCallResult> {
  const { model, request, turn, emitter } = options;
  const signal = request.signal;
  const hooks: CompleteOptions = options.onToolUse ? { onToolUse: options.onToolUse } : {};
  const now = options.now ?? defaultNow;
  for (let attempt = 1; ; attempt++) {
    let error: ModelCallError;
    const startedAt = now();
    try {
      return { ok: true, response: await model.complete(request, hooks), attempts: attempt, startedAt };
    } catch (caught) {
      // An abort is the user's, not the provider's: no model_error, the loop attributes the stop.
      if (signal.aborted) return { ok: false, aborted: true, attempts: attempt };
      error = caught instanceof ModelCallError ? caught : new ModelCallError('unknown', String(caught));
    }
    // Built only once an attempt failed: the common call succeeds at once and needs neither.
    const config = { ...DEFAULT_RETRY_CONFIG, ...options.retry };
    const deps = { ...REAL_DEPS, ...options.deps };
    const willRetry = attempt < config.maxAttempts && isRetryable(error);
    emitter.emit('model_error', {
      turn,
      error_kind: error.kind,
      status: error.status,
      attempt,
      will_retry: willRetry,
      retry_after_ms: error.retryAfterMs,
    });
    if (!willRetry) return { ok: false, aborted: false, error, attempts: attempt };
    await deps.sleep(backoffMs(attempt, error.retryAfterMs, config, deps.random), signal);
    if (signal.aborted) return { ok: false, aborted: true, attempts: attempt };
    options.onRetry?.(attempt);
  }
}
