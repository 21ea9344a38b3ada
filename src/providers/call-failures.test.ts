/**
 * How one call of each official-SDK adapter fails, on every path (whole
 * response, stream start, stream body): the first-byte timeout is a
 * retryable `timeout` whatever the SDK threw, a user abort rejects with the
 * signal's reason, an HTTP error is classified by status. The adapters map
 * these in one frame per call (sdk-guard.ts, first-byte.ts); this pins that
 * each path still does.
 */
import { describe, expect, it } from 'vitest';
import { AnthropicModel } from './anthropic.js';
import { OpenAIModel } from './openai.js';
import { OpenAIResponsesModel } from './openai-responses.js';
import { ModelCallError, type Model, type ModelRequest } from './types.js';

type Upstream = 'silent' | 'headers-then-silent' | 'status-500';

/** A fetch that answers as `upstream` says and otherwise waits for the SDK's signal. */
function fetchFor(upstream: Upstream): typeof fetch {
  return async (_input, init) => {
    const signal = init?.signal ?? undefined;
    if (upstream === 'status-500') return new Response(JSON.stringify({ error: { type: 'api_error', message: 'boom' } }), { status: 500, headers: { 'content-type': 'application/json', 'x-should-retry': 'false' } });
    const hang = () =>
      new Promise<never>((_, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    if (upstream === 'silent') return hang();
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true }) });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

type Fetch = typeof globalThis.fetch;
const adapters: Record<string, (fetch: Fetch, stream: boolean, firstByteTimeoutMs?: number) => Model> = {
  anthropic: (fetch, stream, firstByteTimeoutMs) => new AnthropicModel({ model: 'm', apiKey: 'k', baseURL: 'http://upstream.invalid', fetch, stream, firstByteTimeoutMs }),
  openai: (fetch, stream, firstByteTimeoutMs) => new OpenAIModel({ model: 'm', apiKey: 'k', baseURL: 'http://upstream.invalid/v1', fetch, stream, firstByteTimeoutMs }),
  responses: (fetch, stream, firstByteTimeoutMs) => new OpenAIResponsesModel({ model: 'm', apiKey: 'k', baseURL: 'http://upstream.invalid/v1', fetch, stream, firstByteTimeoutMs }),
};

const request = (signal?: AbortSignal): ModelRequest => ({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], maxTokens: 16, ...(signal ? { signal } : {}) });

async function failure(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

describe.each(Object.keys(adapters))('%s adapter call failures', (name) => {
  const make = adapters[name]!;
  for (const stream of [false, true]) {
    const paths: Upstream[] = stream ? ['silent', 'headers-then-silent'] : ['silent'];
    for (const upstream of paths) {
      it(`${stream ? 'streaming' : 'whole'}, upstream ${upstream}: the first-byte timeout is a retryable timeout`, async () => {
        const error = await failure(make(fetchFor(upstream), stream, 50).complete(request()));
        expect(error).toBeInstanceOf(ModelCallError);
        expect(error).toMatchObject({ kind: 'timeout', status: null, retryable: true, message: expect.stringContaining('first-byte timeout (50 ms)') });
      });

      it(`${stream ? 'streaming' : 'whole'}, upstream ${upstream}: a user abort rejects with the signal's reason, even under a first-byte timer`, async () => {
        const user = new AbortController();
        const reason = new Error('user stopped');
        setTimeout(() => user.abort(reason), 20);
        expect(await failure(make(fetchFor(upstream), stream, 5_000).complete(request(user.signal)))).toBe(reason);
        const plain = new AbortController();
        setTimeout(() => plain.abort(reason), 20);
        expect(await failure(make(fetchFor(upstream), stream).complete(request(plain.signal)))).toBe(reason);
      });
    }

    it(`${stream ? 'streaming' : 'whole'}: an HTTP 500 is a classified error with its status and x-should-retry`, async () => {
      const error = await failure(make(fetchFor('status-500'), stream, 5_000).complete(request()));
      expect(error).toBeInstanceOf(ModelCallError);
      expect(error).toMatchObject({ status: 500, shouldRetry: false });
    });
  }
});
