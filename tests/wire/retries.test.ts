/**
 * Retries, aborts and cut streams over real sockets (the loopback server; msw
 * hangs on cancelled bodies, docs/architecture.md#dependency-notes), for both wires.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DEPS } from '../../src/harness/loop/model-call.js';
import { loopbackModel } from '../../src/mock/loopback-model.js';
import { startLoopbackServer, type LoopbackServer } from '../../src/mock/loopback-server.js';
import { ModelCallError, type ToolUseBlock } from '../../src/providers/types.js';
import { lost, runOnLoopback, WIRES } from './loopback-run.js';
import { runWithModel } from '../harness/agent-run.js';
import type { Model } from '../../src/providers/types.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});

const rateLimited = (ms: string) => [{ text: 'Hello.', fault: { status: 429, headers: { 'retry-after-ms': ms }, times: 1 } }];
const gapMs = (requests: Array<{ receivedAt: number }>) => (requests[1]?.receivedAt ?? NaN) - (requests[0]?.receivedAt ?? NaN);
/** The real back-off sleep, recording what the harness asked for: the decision is checked exactly, the socket gap on top. */
function recordingSleep() {
  const asked: number[] = [];
  return { asked, sleep: (ms: number, signal: AbortSignal) => (asked.push(ms), REAL_DEPS.sleep(ms, signal)) };
}

describe.each(WIRES)('retries on the %s wire', (wire) => {
  it('honours retry-after-ms: 200 before retrying a 429, then succeeds', async () => {
    const { asked, sleep } = recordingSleep();
    const run = await runOnLoopback(rateLimited('200'), { server, wire, stream: false, deps: { sleep } });
    expect(asked).toEqual([200]);
    const gap = gapMs(run.session.requests);
    console.info(`[${wire}] retry-after-ms 200 -> measured gap between attempts: ${gap.toFixed(1)} ms`);
    expect(gap).toBeGreaterThanOrEqual(195);
    expect(gap).toBeLessThan(200 + 450); // generous: 2 cores shared by several test runs (load ~10)
    expect(run.of('model_error')).toEqual([expect.objectContaining({ error_kind: 'rate_limited', status: 429, attempt: 1, will_retry: true, retry_after_ms: 200 })]);
    expect(run.result.stop).toBe('end_turn');
  });

  it('retries sooner when the hint is ignored (the rule switched off), so the checks above can fail', async () => {
    const { asked, sleep } = recordingSleep();
    const run = await runOnLoopback(rateLimited('200'), {
      server,
      wire,
      stream: false,
      config: { retry: { maxRetryAfterMs: 0, baseDelayMs: 10, jitter: 0 } },
      deps: { sleep },
    });
    // The decision is checked, not a wall-clock gap: under load a 10 ms sleep can take longer than 200 ms.
    expect(asked).toEqual([10]);
    expect(run.session.requests).toHaveLength(2);
  });

  it('retries the whole request when the stream is cut mid tool_use, and runs the call once', async () => {
    const script = [
      { tool_use: [{ name: 'write', input: { file_path: 'out.txt', content: 'written once\n' } }], fault: { cut_after_events: 5, times: 1 } },
      { text: 'Saved.' },
    ];
    const run = await runOnLoopback(script, { server, wire, stream: true, deps: { sleep: async () => undefined } });
    expect(run.session.requests.map((r) => [r.turn, r.attempt])).toEqual([[1, 1], [1, 2], [2, 1]]);
    expect(run.of('model_error')).toEqual([expect.objectContaining({ error_kind: 'stream_interrupted', attempt: 1, will_retry: true, status: null })]);
    expect(run.of('tool_call')).toHaveLength(1);
    expect(readFileSync(join(run.workspace, 'out.txt'), 'utf8')).toBe('written once\n');
    expect(lost(run)).toBe(0);
  });

  it('with retries off, the cut stream ends the session with model_error and nothing runs', async () => {
    const script = [{ tool_use: [{ name: 'write', input: { file_path: 'out.txt', content: 'x' } }], fault: { cut_after_events: 5 } }];
    const run = await runOnLoopback(script, { server, wire, stream: true, config: { retry: { maxAttempts: 1 } } });
    expect(run.result.stop).toBe('model_error');
    expect(run.of('model_error')).toEqual([expect.objectContaining({ error_kind: 'stream_interrupted', will_retry: false })]);
    expect(run.of('tool_call')).toHaveLength(0);
  });

  it('stops at once when aborted during a slow stream: no model_error, stop attributed to the abort', async () => {
    const script = [{ text: 'word '.repeat(400), fault: { chunk_delay_ms: 40 } }];
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort('user_abort');
    }, 150);
    const run = await runOnLoopback(script, { server, wire, stream: true, signal: controller.signal });
    const lag = performance.now() - abortedAt;
    expect(lag).toBeLessThan(500); // vs ~16 s for the whole stream: the abort cut it short
    expect(run.result.stop).toBe('aborted');
    expect(run.of('model_error')).toHaveLength(0);
    expect(run.of('model_response')).toHaveLength(0);
  });

  it('stops waiting at once when aborted during a retry back-off', async () => {
    const controller = new AbortController();
    const { model, session } = await loopbackModel(rateLimited('5000'), { wire, stream: false, server });
    // Aborted once the first attempt has failed (the 429 answered), i.e. in the 5 s back-off, not on a timer
    // that a loaded machine may fire before the first request is even sent.
    let abortedAt = 0;
    const watched: Model = {
      provider: model.provider,
      model: model.model,
      describeRequest: (r) => model.describeRequest(r),
      complete: (r, o) =>
        model.complete(r, o).catch((error: unknown) => {
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort('user_abort');
          }, 50);
          throw error;
        }),
    };
    try {
      const run = await runWithModel(watched, { signal: controller.signal });
      expect(abortedAt).toBeGreaterThan(0);
      expect(performance.now() - abortedAt).toBeLessThan(1000);
      expect(run.result.stop).toBe('aborted');
      expect(session.requests).toHaveLength(1);
    } finally {
      session.close();
    }
  });

  it('reports only complete tool_use blocks while streaming, and rejects when the stream is cut inside the next one', async () => {
    const script = [
      {
        tool_use: [
          { name: 'read', input: { file_path: 'a.txt' } },
          { name: 'read', input: { file_path: 'b-with-a-long-name-so-the-cut-lands-inside.txt' } },
        ],
        // Anthropic: start, ping, block 0 (start, 3 deltas, stop) = 7 events, then block 1's start and first deltas.
        // OpenAI: role chunk, both call heads, then interleaved argument pieces: no call is complete before finish_reason.
        // Responses: created, in_progress, call 0 (added, 2 deltas, arguments.done, item.done) = 7 events, then call 1 starts.
        fault: { cut_after_events: 9 },
      },
    ];
    const { model, session } = await loopbackModel(script, { wire, stream: true, server });
    const reported: ToolUseBlock[] = [];
    const error = await model
      .complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: [], maxTokens: 100 }, { onToolUse: (b) => reported.push(b) })
      .catch((e: unknown) => e);
    session.close();
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'stream_interrupted', retryable: true });
    expect(reported.map((b) => b.input)).toEqual(wire === 'openai' ? [] : [{ file_path: 'a.txt' }]);
  });
});
