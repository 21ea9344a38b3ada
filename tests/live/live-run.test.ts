/**
 * The live provider paths, end to end through the CLI, against a local
 * server standing in for the provider (only the base URL differs from a real
 * run, so CI needs no key). The manual command for the real APIs is in the
 * run command's help and the README.
 */
import { join } from 'node:path';
import { loadSuites } from '../../src/suites/load-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { startCannedProvider, type CannedProvider } from './canned-provider.js';
import { captureIo, liveSuite, traceEvents } from './helpers.js';

let server: CannedProvider;
beforeAll(async () => {
  server = await startCannedProvider();
});
afterAll(async () => {
  await server.close();
});

describe('faultline run against a live provider', () => {
  it('runs an unscripted task on the Anthropic wire with the key from ANTHROPIC_API_KEY, and its expectations pass', async () => {
    const { dir, suite } = liveSuite();
    const out = join(dir, 'trace.jsonl');
    const io = captureIo({ ANTHROPIC_API_KEY: 'sk-ant-test-key-0000000000' });
    const before = server.requests.length;
    const code = await run(['run', suite, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', server.root, '--out', out], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    const seen = server.requests.slice(before);
    expect(seen.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
    // The SDK sends the key as x-api-key or as a bearer token depending on its version; either way it is this key.
    expect(`${seen[0]!.headers['x-api-key'] ?? ''} ${seen[0]!.headers.authorization ?? ''}`).toContain('sk-ant-test-key-0000000000');
    expect(seen[0]!.body.model).toBe('claude-test');
    const start = traceEvents(out).find((e) => e.event === 'run_start')!;
    expect(start).toMatchObject({ provider: 'anthropic', model: 'claude-test' });
  });

  it('runs on the OpenAI wire with OPENAI_API_KEY as a bearer token and strict tools when asked', async () => {
    const { dir, suite } = liveSuite();
    const io = captureIo({ OPENAI_API_KEY: 'sk-test-openai-0000000000' });
    const before = server.requests.length;
    const code = await run(['run', suite, '--provider', 'openai', '--model', 'gpt-test', '--base-url', `${server.root}/v1`, '--strict', '--out', join(dir, 't.jsonl')], io);
    expect(code).toBe(0);
    const seen = server.requests.slice(before);
    expect(seen[0]!.path).toBe('/v1/chat/completions');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-test-openai-0000000000');
    const fn = seen[0]!.body.tools[0].function;
    expect(fn.strict).toBe(true);
    expect(fn.parameters.required).toEqual(Object.keys(fn.parameters.properties));
    expect(seen[0]!.body.max_completion_tokens).toBeGreaterThan(0);
  });

  it('never sends OPENAI_API_KEY to an openai-compatible server and needs no key there', async () => {
    const { dir, suite } = liveSuite();
    const io = captureIo({ OPENAI_API_KEY: 'sk-real-openai-key-must-not-leak' });
    const before = server.requests.length;
    const code = await run(['run', suite, '--provider', 'openai-compatible', '--model', 'qwen-test', '--base-url', `${server.root}/v1`, '--out', join(dir, 't.jsonl')], io);
    expect(code).toBe(0);
    const seen = server.requests.slice(before);
    expect(seen[0]!.headers.authorization).not.toContain('sk-real-openai-key-must-not-leak');
    expect(seen[0]!.body.max_tokens).toBeGreaterThan(0);
    expect(seen[0]!.body.max_completion_tokens).toBeUndefined();
  });

  it('fails before any request with a message naming the missing key variable', async () => {
    const { suite } = liveSuite();
    const io = captureIo({});
    const before = server.requests.length;
    const code = await run(['run', suite, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', server.root], io);
    expect(code).toBe(2);
    expect(io.err()).toContain('ANTHROPIC_API_KEY is not set');
    expect(server.requests.length).toBe(before);
  });

  it('refuses to run an unscripted task on the mock and says how to run it', async () => {
    const { suite } = liveSuite();
    const io = captureIo({});
    const code = await run(['run', suite], io);
    expect(code).toBe(2);
    expect(io.err()).toContain('live-smoke/read-note');
    expect(io.err()).toContain('--provider anthropic|openai|openai-compatible');
  });

  it('with --repeat 3 runs each task three times and reports pass@1 with a Wilson interval and pass^3', async () => {
    const flaky = await startCannedProvider({ answerFor: (session, result) => (session === 1 ? 'I could not read it.' : `It says ${result.trim()}`) });
    try {
      const { dir, suite } = liveSuite();
      const out = join(dir, 'trace.jsonl');
      const io = captureIo({ ANTHROPIC_API_KEY: 'sk-ant-test-key-0000000000' });
      const code = await run(['run', suite, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', flaky.root, '--repeat', '3', '-j', '1', '--out', out], io);
      expect(code).toBe(1);
      const starts = traceEvents(out).filter((e) => e.event === 'session_start');
      expect(starts.map((e) => e.repeat)).toEqual([0, 1, 2]);
      expect(new Set(starts.map((e) => e.session_id)).size).toBe(3);
      // 2 of 3 pass: pass@1 67%, Wilson 95% [21%, 94%], pass^3 0%.
      expect(io.out()).toMatch(/live-smoke\/read-note\s*│\s*2\/3\s*│\s*67%\s*│\s*21%-94%\s*│\s*0%/);
      expect(io.out()).toContain('read-note #2');
    } finally {
      await flaky.close();
    }
  });

  it('ships a manual real-API suite whose tasks are all unscripted, so CI never runs it on the mock', () => {
    const tasks = loadSuites(['tests/live/real-api.yaml']);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((t) => t.script === undefined)).toBe(true);
  });

  it('rejects --wire with a live provider instead of ignoring it', async () => {
    const { suite } = liveSuite();
    const io = captureIo({ OPENAI_API_KEY: 'sk-test-openai-0000000000' });
    expect(await run(['run', suite, '--provider', 'openai', '--model', 'm', '--wire', 'anthropic'], io)).toBe(2);
    expect(io.err()).toContain('--wire chooses what the mock speaks');
  });
});
