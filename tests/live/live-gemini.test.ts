/**
 * `faultline run --provider gemini`: the live path on the official
 * @google/genai client against a local server standing in for the Gemini API
 * (only the base URL differs from a real run, so CI needs no key). The key
 * comes from GEMINI_API_KEY, the base URL from --base-url or
 * GOOGLE_GEMINI_BASE_URL (the variables @google/genai and Google's docs name).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { startCannedProvider, type CannedProvider } from './canned-provider.js';
import { captureIo, liveSuite, traceEvents } from './helpers.js';

const KEY = 'AIza-test-gemini-key-0000000000';
let server: CannedProvider;
beforeAll(async () => {
  server = await startCannedProvider();
});
afterAll(async () => {
  await server.close();
});

describe('faultline run --provider gemini', () => {
  it('runs an unscripted task on generateContent with the key from GEMINI_API_KEY, and its expectations pass', async () => {
    const { dir, suite } = liveSuite();
    const out = join(dir, 'trace.jsonl');
    const io = captureIo({ GEMINI_API_KEY: KEY });
    const before = server.requests.length;
    const code = await run(['run', suite, '--provider', 'gemini', '--model', 'gemini-test', '--base-url', server.root, '--out', out], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    const seen = server.requests.slice(before);
    expect(seen.map((r) => r.path)).toEqual(['/v1beta/models/gemini-test:generateContent', '/v1beta/models/gemini-test:generateContent']);
    expect(seen[0]!.headers['x-goog-api-key']).toBe(KEY);
    expect(seen[0]!.body.tools[0].functionDeclarations.map((f: { name: string }) => f.name)).toEqual(['read']);
    // Turn 2 carries the tool's output back as a functionResponse.
    const parts = seen[1]!.body.contents.flatMap((c: { parts: unknown[] }) => c.parts) as Array<Record<string, { response?: { output?: string } }>>;
    expect(parts.find((p) => p.functionResponse)?.functionResponse?.response?.output).toContain('hello live');
    const events = traceEvents(out);
    expect(events.find((e) => e.event === 'run_start')).toMatchObject({ provider: 'gemini', model: 'gemini-test' });
    expect(events.find((e) => e.event === 'session_start')).toMatchObject({ transport: 'live' });
    expect(events.filter((e) => e.event === 'model_request').map((e) => e.provider)).toEqual(['gemini', 'gemini']);
  });

  it('takes the base URL from GOOGLE_GEMINI_BASE_URL when --base-url is not given', async () => {
    const { dir, suite } = liveSuite();
    const io = captureIo({ GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: server.root });
    const before = server.requests.length;
    const code = await run(['run', suite, '--provider', 'gemini', '--model', 'gemini-test', '--out', join(dir, 't.jsonl')], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    expect(server.requests.length - before).toBe(2);
  });

  it('fails before any request, exit 2, naming GEMINI_API_KEY when it is not set', async () => {
    const { dir, suite } = liveSuite();
    const io = captureIo({ GOOGLE_GEMINI_BASE_URL: server.root });
    const before = server.requests.length;
    const out = join(dir, 't.jsonl');
    const code = await run(['run', suite, '--provider', 'gemini', '--model', 'gemini-test', '--out', out], io);
    expect(code).toBe(2);
    expect(io.err()).toBe('faultline: GEMINI_API_KEY is not set: export GEMINI_API_KEY=... to run --provider gemini (or use --provider mock, or --replay <dir>)\n');
    expect(server.requests.length).toBe(before);
    expect(existsSync(out)).toBe(false);
  });
});
