/**
 * Anthropic prompt caching through the real @anthropic-ai/sdk client and the
 * loopback mock: the request bodies carry cache_control breakpoints (the
 * stable prefix and the conversation's last block, never more than the API's
 * 4), the mock refuses a fifth as the API does, and reports cache reads, so a
 * session's cache-read share is non-zero from its second turn. Off: no
 * breakpoint, no read — the figure the report shows measured nothing.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { sharedLoopbackServer } from '../../src/mock/loopback-model.js';
import { AnthropicModel } from '../../src/providers/anthropic.js';
import { runWithModel } from '../harness/agent-run.js';

const script = [
  { tool_use: [{ name: 'read', input: { file_path: 'a.txt' } }] },
  { tool_use: [{ name: 'read', input: { file_path: 'b.txt' } }] },
  { text: 'Both read.' },
];

async function session(promptCache: boolean | undefined) {
  const server = await sharedLoopbackServer();
  const mock = server.register(script, { wire: 'anthropic' });
  const bodies: Record<string, unknown>[] = [];
  const spy: typeof fetch = async (input, init) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return fetch(input, init);
  };
  const model = new AnthropicModel({ model: 'mock-claude', apiKey: 'mock-key', baseURL: mock.rootBaseURL, headers: mock.headers, fetch: spy, ...(promptCache !== undefined ? { promptCache } : {}) });
  try {
    const run = await runWithModel(model, { files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }, config: { system: 'You are a careful assistant.' } });
    return { run, bodies };
  } finally {
    mock.close();
  }
}

const marks = (body: unknown) => JSON.stringify(body).split('"cache_control"').length - 1;

describe('Anthropic prompt caching', () => {
  it('marks the system prompt and the last block of each request, and reads the cache from the second turn on', async () => {
    const { run, bodies } = await session(undefined);
    expect(run.result.stop).toBe('end_turn');
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(marks(body)).toBe(2);
      expect(body['system']).toEqual([{ type: 'text', text: expect.stringContaining('careful assistant'), cache_control: { type: 'ephemeral' } }]);
      const messages = body['messages'] as Array<{ content: Array<Record<string, unknown>> }>;
      expect(messages.at(-1)!.content.at(-1)!['cache_control']).toEqual({ type: 'ephemeral' });
    }
    const responses = run.of('model_response');
    expect(responses[0]!.cache_read_tokens).toBe(0);
    expect(responses[0]!.cache_write_tokens).toBeGreaterThan(0);
    // Each later turn reads what the previous one wrote.
    expect(responses[1]!.cache_read_tokens).toBe(responses[0]!.cache_write_tokens);
    expect(responses[2]!.cache_read_tokens).toBeGreaterThan(responses[1]!.cache_read_tokens!);
    expect(run.result.usage.cache_read_tokens).toBeGreaterThan(0);
  });

  it('sends no breakpoint when switched off, and then nothing is read from the cache', async () => {
    const { run, bodies } = await session(false);
    expect(bodies.map(marks)).toEqual([0, 0, 0]);
    expect(typeof bodies[0]!['system']).toBe('string');
    expect(run.result.usage.cache_read_tokens).toBe(0);
  });

  it('is refused like the API when a request marks more than 4 blocks', async () => {
    const server = await sharedLoopbackServer();
    const mock = server.register([{ text: 'ok' }], { wire: 'anthropic' });
    const client = new Anthropic({ apiKey: 'mock-key', baseURL: mock.rootBaseURL, defaultHeaders: mock.headers, maxRetries: 0 });
    const block = (text: string) => ({ type: 'text' as const, text, cache_control: { type: 'ephemeral' as const } });
    try {
      const four = await client.messages.create({ model: 'mock-claude', max_tokens: 10, messages: [{ role: 'user', content: ['a', 'b', 'c', 'd'].map(block) }] });
      expect(four.usage.cache_creation_input_tokens).toBeGreaterThan(0);
      const five = client.messages.create({ model: 'mock-claude', max_tokens: 10, messages: [{ role: 'user', content: ['a', 'b', 'c', 'd', 'e'].map(block) }] });
      await expect(five).rejects.toMatchObject({ status: 400, message: expect.stringContaining('A maximum of 4 blocks with cache_control may be provided. Found 5.') });
    } finally {
      mock.close();
    }
  });
});
