/**
 * The stream idle timeout is what cuts a stalled stream: protocol-023 with the
 * suite's short idle timeout passes (cut, retried, the call runs once); with
 * the timeout left at a long value the same stall holds the session until the
 * user aborts it, with no timeout at all. And the CLI flag reaches the task.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/index.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';
import { parseMs, withModelFlags } from '../../src/suites/task-model-flags.js';

const [task, late] = loadSuites([
  join(import.meta.dirname, '../../suites/faults/protocol/023-stream-stall-idle-timeout.yaml'),
  join(import.meta.dirname, '../../suites/faults/protocol/024-first-byte-timeout.yaml'),
]);
const source = mockModelSource();
afterAll(() => source.close());

async function run(override: Record<string, unknown>, chosen = task!) {
  const sink = new MemorySink();
  const summary = await runSuite({ tasks: [{ ...chosen, ...override }], sink, source });
  const events = sink.events() as unknown as Record<string, unknown>[];
  return { outcome: summary.outcomes[0]!, errors: events.filter((e) => e['event'] === 'model_error') };
}

describe('a stalled or silent upstream', () => {
  it('is cut by the idle timeout and retried', async () => {
    const on = await run({});
    expect(on.outcome.outcome).toBe('passed');
    expect(on.errors).toMatchObject([{ error_kind: 'timeout', status: null, will_retry: true }]);
  }, 30_000);

  it('hangs the session without a short idle timeout (here until the user aborts)', async () => {
    const off = await run({ stream_idle_timeout_ms: 60_000, abort_after_ms: 4_000 });
    expect(off.outcome.stop).toBe('aborted');
    expect(off.errors).toEqual([]);
  }, 30_000);

  it('that never starts is cut by the first-byte timeout; without one the session waits the upstream out', async () => {
    const on = await run({}, late!);
    expect(on.outcome.outcome).toBe('passed');
    expect(on.errors).toMatchObject([{ error_kind: 'timeout', status: null, will_retry: true }]);
    const off = await run({ first_byte_timeout_ms: undefined }, late!);
    expect(off.outcome.outcome).toBe('failed');
    expect(off.errors).toEqual([]);
    expect(off.outcome.durationMs).toBeGreaterThanOrEqual(5_900);
  }, 60_000);

  it('takes the idle timeout from faultline run --stream-idle-timeout over the task', () => {
    expect(withModelFlags([{ stream_idle_timeout_ms: 400 }], { streamIdleTimeoutMs: 90 })[0]!.stream_idle_timeout_ms).toBe(90);
    expect(withModelFlags([{ stream_idle_timeout_ms: 400 }], {})[0]!.stream_idle_timeout_ms).toBe(400);
    expect(withModelFlags([{}], { firstByteTimeoutMs: 700 })[0]).toMatchObject({ first_byte_timeout_ms: 700 });
    expect([parseMs('250'), parseMs('0'), parseMs('1.5'), parseMs('x')]).toEqual([250, null, null, null]);
  });
});
