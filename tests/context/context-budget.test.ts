/**
 * The context budget end to end: the context fault scenarios through the real
 * SDK clients and the mock on all three wires, and each with its defense
 * switched off (a test-only harness fault, or the manager off) to show the
 * scenario catches the failure it is about.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/index.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const root = join(import.meta.dirname, '../..');
const tasks = loadSuites([join(root, 'suites/faults/context-compaction.yaml')]);
const task = (prefix: string) => tasks.find((t) => t.id.startsWith(prefix))!;
const source = mockModelSource();
afterAll(() => source.close());
const WIRES = ['anthropic', 'openai', 'responses'] as const;

async function run(chosen: LoadedTask, wire: (typeof WIRES)[number]) {
  const sink = new MemorySink();
  const summary = await runSuite({ tasks: [{ ...chosen, wire }], sink, source });
  const outcome = summary.outcomes[0]!;
  const events = sink.events() as unknown as Record<string, unknown>[];
  return { outcome, events, of: (name: string) => events.filter((e) => e['event'] === name) };
}

describe.each(WIRES)('the context budget on the %s wire', (wire) => {
  it('re-announces loaded deferred tools after a compaction; without it the model loses the tool', async () => {
    const on = await run(task('context-001'), wire);
    expect(on.outcome.outcome, JSON.stringify(on.outcome.expectations.filter((e) => !e.ok))).toBe('passed');
    expect(on.of('context_compaction')[0]).toMatchObject({ fits: true, turns_dropped: 0 });
    expect(on.of('tools_announced')).toMatchObject([{ reason: 'after_compaction', tools_count: 1 }]);

    const off = await run({ ...task('context-001'), harness_faults: { compaction_forgets_deferred: true } }, wire);
    expect(off.outcome.outcome).toBe('failed');
    expect(off.of('tools_announced')).toHaveLength(0);
    expect(off.of('tool_success').filter((e) => e['tool'] === 'sleep')).toHaveLength(0);
  }, 60_000);

  it('drops whole turns so every tool_use keeps its result; a compaction that splits a pair is refused by the API', async () => {
    const on = await run(task('context-002'), wire);
    expect(on.outcome.outcome, JSON.stringify(on.outcome.expectations.filter((e) => !e.ok))).toBe('passed');
    expect(on.of('model_error')).toHaveLength(0);

    const off = await run({ ...task('context-002'), harness_faults: { compaction_splits_pairs: true } }, wire);
    expect(off.outcome.stop).toBe('model_error');
    // A 400 for the orphaned tool_result (or the call without its output): never retried.
    expect(off.of('model_error')).toMatchObject([{ error_kind: 'invalid_request', status: 400, will_retry: false }]);
  }, 60_000);

  it('stops with context_limit before a prompt that cannot fit; without a manager the request is sent anyway', async () => {
    const on = await run(task('context-003'), wire);
    expect(on.outcome.outcome, JSON.stringify(on.outcome.expectations.filter((e) => !e.ok))).toBe('passed');
    expect(on.of('session_end')).toMatchObject([{ stop: 'context_limit' }]);

    const off = await run({ ...task('context-003'), context_manager: false }, wire);
    expect(off.outcome.outcome).toBe('failed');
    expect(off.of('model_request')).toHaveLength(2);
    expect(off.of('context_compaction')).toHaveLength(0);
  }, 60_000);
});
