/** Transport-level error classes, driven through each real SDK with an injected fetch (no msw needed). */
import { describe, expect, it } from 'vitest';
import { AnthropicModel } from './anthropic.js';
import { OpenAIModel } from './openai.js';
import { ModelCallError, type Model, type ModelRequest } from './types.js';

const request: ModelRequest = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], maxTokens: 10 };

const refused: typeof fetch = async () => {
  throw new TypeError('fetch failed');
};
const hanging: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));

type Fetch = typeof globalThis.fetch;
const builders: Array<[string, (fetch: Fetch, timeoutMs?: number) => Model]> = [
  ['anthropic', (fetch, timeoutMs) => new AnthropicModel({ model: 'm', apiKey: 'k', baseURL: 'http://mock.invalid', fetch, timeoutMs })],
  ['openai', (fetch, timeoutMs) => new OpenAIModel({ model: 'm', apiKey: 'k', baseURL: 'http://mock.invalid/v1', fetch, timeoutMs })],
];

describe.each(builders)('the %s adapter', (_name, build) => {
  it('classifies a failed connection as connection, retryable', async () => {
    const error = await build(refused).complete(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'connection', status: null, retryable: true });
  });

  it('classifies its own timeout as timeout', async () => {
    const error = await build(hanging, 30).complete(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('rethrows a user abort as the signal reason, not as a provider error', async () => {
    const controller = new AbortController();
    const reason = new Error('user pressed ctrl-c');
    const pending = build(hanging).complete({ ...request, signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });
});
