/**
 * On the in-process transport the adapters give the call's abort signal to
 * the mock's fetch (providers/caller-signal.ts), not to the SDK. An abort must
 * still end the call at once with the signal's reason, whatever the call is
 * waiting on: a delay before the headers, a stalled stream, or nothing (the
 * signal aborted before the call). Checked on the real adapters of each wire
 * the official SDKs serve, streamed and not.
 */
import { describe, expect, it } from 'vitest';
import { memoryModel } from './memory-model.js';
import type { ScriptInput } from './script.js';
import type { Wire } from './wire-errors.js';

const ask = { system: 'be brief', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], tools: [], maxTokens: 100 };

async function abortedCall(wire: Wire, stream: boolean, script: ScriptInput, abortAfterMs: number | 'before'): Promise<{ error: unknown; ms: number }> {
  const { model, session } = memoryModel(script, { wire, stream });
  const controller = new AbortController();
  const reason = new Error('the task was cancelled');
  if (abortAfterMs === 'before') controller.abort(reason);
  else setTimeout(() => controller.abort(reason), abortAfterMs);
  const started = performance.now();
  try {
    await model.complete({ ...ask, signal: controller.signal });
    return { error: null, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  } finally {
    session.close();
  }
}

describe.each([
  ['anthropic', false],
  ['anthropic', true],
  ['openai', false],
  ['openai', true],
  ['responses', false],
  ['responses', true],
] as const)('the %s adapter (stream %s) on the in-process transport', (wire, stream) => {
  it('ends a call waiting for a delayed reply with the abort reason', async () => {
    const { error, ms } = await abortedCall(wire, stream, [{ text: 'late', fault: { delay_ms: 10_000 } }], 50);
    expect((error as Error | null)?.message).toBe('the task was cancelled');
    expect(ms).toBeLessThan(5_000);
  });

  it('rejects a call whose signal aborted before it started with the reason', async () => {
    const { error } = await abortedCall(wire, stream, [{ text: 'never' }], 'before');
    expect((error as Error | null)?.message).toBe('the task was cancelled');
  });

  if (stream) {
    it('ends a call reading a stalled stream with the abort reason', async () => {
      const { error, ms } = await abortedCall(wire, stream, [{ text: 'partial answer here', fault: { stall_after_events: 2 } }], 100);
      expect((error as Error | null)?.message).toBe('the task was cancelled');
      expect(ms).toBeLessThan(5_000);
    });
  }
});
