import { describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../events/index.js';
import { ModelCallError, type CompleteOptions, type Model, type ModelRequest, type ModelResponse } from '../../providers/types.js';
import { DEFAULT_RETRY_CONFIG } from '../config.js';
import { backoffMs, callModel, isRetryable, type ModelCallDeps } from './model-call.js';

const ok: ModelResponse = {
  content: [{ type: 'text', text: 'hi' }],
  stopReason: 'end_turn',
  stopClass: 'end_turn',
  usage: { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 },
  ttftMs: null,
};

/** A model that fails with the given errors, then answers. */
function flaky(errors: unknown[]): Model & { calls: number } {
  const model = {
    provider: 'fake',
    model: 'fake',
    calls: 0,
    describeRequest: () => ({ requestBytes: 0, toolsBytes: 0, stream: false }),
    async complete(_request: ModelRequest, _options?: CompleteOptions): Promise<ModelResponse> {
      const error = errors[model.calls++];
      if (error !== undefined) throw error;
      return ok;
    },
  };
  return model;
}

const http = (status: number, extra: { retryAfterMs?: number | null; shouldRetry?: boolean | null; retryable?: boolean } = {}) =>
  new ModelCallError('unknown', `HTTP ${status}`, status, extra.retryAfterMs ?? null, extra.retryable ?? (status >= 500 || status === 429), extra.shouldRetry ?? null);

function harness(errors: unknown[], options: { signal?: AbortSignal; maxAttempts?: number } = {}) {
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'r').session('s', 't');
  const slept: number[] = [];
  const deps: ModelCallDeps = { sleep: async (ms) => void slept.push(ms), random: () => 0.5 };
  const model = flaky(errors);
  const signal = options.signal ?? new AbortController().signal;
  const request = { messages: [], tools: [], maxTokens: 10, signal };
  const run = () => callModel({ model, request, turn: 3, emitter, deps, retry: { maxAttempts: options.maxAttempts ?? 4, jitter: 0.5 } });
  const errorsLogged = () => sink.events().filter((e) => e.event === 'model_error');
  return { run, model, slept, errorsLogged };
}

describe('callModel', () => {
  it('retries a 429 after the server hint and logs one model_error per failed attempt', async () => {
    const h = harness([http(429, { retryAfterMs: 200 })]);
    const result = await h.run();
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(h.slept).toEqual([200]);
    expect(h.errorsLogged()).toEqual([expect.objectContaining({ turn: 3, status: 429, attempt: 1, will_retry: true, retry_after_ms: 200 })]);
  });

  it.each([400, 401, 403, 404, 413])('never retries a %i, even when the server says x-should-retry: true', async (status) => {
    const h = harness([http(status, { shouldRetry: true, retryAfterMs: 10 })]);
    const result = await h.run();
    expect(result).toMatchObject({ ok: false, aborted: false, attempts: 1 });
    expect(h.model.calls).toBe(1);
    expect(h.errorsLogged()).toEqual([expect.objectContaining({ attempt: 1, will_retry: false })]);
  });

  it('obeys x-should-retry: false on a 500 and x-should-retry: true on a 409', async () => {
    expect(await harness([http(500, { shouldRetry: false })]).run()).toMatchObject({ ok: false, attempts: 1 });
    expect(await harness([http(409, { shouldRetry: true, retryable: false })]).run()).toMatchObject({ ok: true, attempts: 2 });
  });

  it('stops after maxAttempts, the last model_error saying will_retry: false', async () => {
    const h = harness([http(529), http(529), http(529), http(529)], { maxAttempts: 3 });
    const result = await h.run();
    expect(result).toMatchObject({ ok: false, attempts: 3 });
    expect(h.errorsLogged().map((e) => [e.attempt, e.will_retry])).toEqual([[1, true], [2, true], [3, false]]);
  });

  it('backs off exponentially with jitter when the server gives no hint', async () => {
    const h = harness([http(500), http(500), http(500)]);
    await h.run();
    // base 500 ms doubling, jitter 0.5 x random 0.5 takes 25% off.
    expect(h.slept).toEqual([375, 750, 1500]);
  });

  it('caps the back-off and ignores a hint longer than maxRetryAfterMs in favour of it', () => {
    const config = { ...DEFAULT_RETRY_CONFIG, jitter: 0 };
    expect(backoffMs(10, null, config, () => 0)).toBe(config.maxDelayMs);
    expect(backoffMs(1, 3_600_000, config, () => 0)).toBe(config.baseDelayMs);
    expect(backoffMs(1, 0, config, () => 0)).toBe(0);
  });

  it('treats a non-classified throw as unknown and not retryable', async () => {
    const h = harness([new TypeError('bug')]);
    expect(await h.run()).toMatchObject({ ok: false, aborted: false, error: { kind: 'unknown' } });
  });

  it('returns aborted without a model_error when the call fails because of an abort', async () => {
    const controller = new AbortController();
    controller.abort('user_abort');
    const h = harness(['user_abort'], { signal: controller.signal });
    expect(await h.run()).toMatchObject({ ok: false, aborted: true });
    expect(h.errorsLogged()).toEqual([]);
  });

  it('returns at once when aborted during the back-off, without another attempt', async () => {
    const controller = new AbortController();
    const sink = new MemorySink();
    const model = flaky([http(429, { retryAfterMs: 60_000 })]);
    const request = { messages: [], tools: [], maxTokens: 10, signal: controller.signal };
    setTimeout(() => controller.abort('user_abort'), 20);
    const started = performance.now();
    const result = await callModel({ model, request, turn: 1, emitter: new RunEmitter(sink, 'r').session('s', 't') });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ ok: false, aborted: true });
    expect(model.calls).toBe(1);
  });

  it('classifies retryability: kinds from the adapter, statuses that can never succeed excluded', () => {
    expect(isRetryable(new ModelCallError('stream_interrupted', 'cut', null, null, true))).toBe(true);
    expect(isRetryable(new ModelCallError('invalid_request', 'bad', 400, null, false))).toBe(false);
    expect(isRetryable(new ModelCallError('server_error', '5xx', 413, null, true))).toBe(false);
  });

  it('reports when the successful attempt started, so a response duration excludes failed attempts and back-off', async () => {
    let clock = 0;
    const model = flaky([http(500)]);
    const sink = new MemorySink();
    const result = await callModel({
      model,
      request: { messages: [], tools: [], maxTokens: 1, signal: new AbortController().signal },
      turn: 1,
      emitter: new RunEmitter(sink, 'r').session('s', 't'),
      now: () => clock,
      deps: { sleep: async (ms) => void (clock += ms), random: () => 0 },
    });
    expect(result).toMatchObject({ ok: true, attempts: 2, startedAt: 500 });
  });
});
