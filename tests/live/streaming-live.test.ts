/**
 * The streaming live path (SSE through the official SDKs) against the
 * project's loopback server standing in for the providers (all three wires), recorded and
 * replayed: the replay keeps the recorded time to first token and outcomes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { startLoopbackServer, type LoopbackServer } from '../../src/mock/loopback-server.js';
import { captureIo, liveSuite, traceEvents } from './helpers.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer({
    script: [
      { tool_use: [{ name: 'read', input: { file_path: 'note.txt' } }] },
      { rule: [{ when: { tool: 'read', contains: 'hello live' }, then: { text: 'The note says hello live.' } }, { then: { text: 'I could not read it.' } }] },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

const cases = [
  { provider: 'anthropic', env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-0000000000' }, base: () => server.origin },
  { provider: 'openai', env: { OPENAI_API_KEY: 'sk-test-openai-0000000000' }, base: () => `${server.origin}/v1` },
  { provider: 'openai-responses', env: { OPENAI_API_KEY: 'sk-test-openai-0000000000' }, base: () => `${server.origin}/v1` },
] as const;
const wireOf = { anthropic: 'anthropic', openai: 'openai', 'openai-responses': 'responses' } as const;

describe('a streamed live run', () => {
  for (const c of cases) {
    it(`streams on the ${c.provider} wire, passes its expectations, and replays with the recorded ttft`, async () => {
      const { dir, suite } = liveSuite();
      const recorded = join(dir, 'recorded.jsonl');
      const io = captureIo({ ...c.env });
      const args = ['run', suite, '--provider', c.provider, '--model', 'm-test', '--base-url', c.base(), '--stream', '--record', join(dir, 'rec'), '--out', recorded];
      expect(await run(args, io)).toBe(0);
      const requests = traceEvents(recorded).filter((e) => e.event === 'model_request');
      expect(requests.map((e) => e.stream)).toEqual([true, true]);
      // The streamed request is built by the same mapping and dialect: no $schema on the wire here either.
      const received = server.defaultSession()!.requests.filter((r) => r.wire === wireOf[c.provider] && r.request?.stream);
      expect(received.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(received.map((r) => r.request!.tools))).not.toContain('$schema');
      const responses = traceEvents(recorded).filter((e) => e.event === 'model_response');
      expect(responses.every((e) => typeof e.ttft_ms === 'number')).toBe(true);

      const replayed = join(dir, 'replayed.jsonl');
      expect(await run(['run', suite, '--replay', join(dir, 'rec'), '--out', replayed], captureIo())).toBe(0);
      const again = traceEvents(replayed);
      expect(again.filter((e) => e.event === 'model_response').map((e) => e.ttft_ms)).toEqual(responses.map((e) => e.ttft_ms));
      expect(again.filter((e) => e.event === 'model_request').map((e) => e.stream)).toEqual([true, true]);
      expect(again.filter((e) => e.event === 'tool_call').map((e) => e.tool)).toEqual(['read']);
    });
  }
});
