/**
 * Partitioned scheduling through the whole harness (real SDK + msw): order is
 * kept across unsafe calls, safe calls really run at the same time, a safety
 * check that throws means unsafe, and the pool never exceeds its limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler } from '../../src/harness/schedule/scheduler.js';
import { editTool } from '../../src/harness/tools/edit.js';
import { sleepTool } from '../../src/harness/tools/fault-tools.js';
import { readTool } from '../../src/harness/tools/read.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import { commonOverlap, run, timed } from './harness.js';

const reads = (n: number) => Array.from({ length: n }, () => ({ name: 'read', input: { file_path: 'a.txt' } }));

describe('partitioned scheduling', () => {
  afterEach(() => {
    delete process.env.FAULTLINE_MAX_TOOL_CONCURRENCY;
  });

  it('runs [Read a, Edit a, Read a] in three batches, so the second read sees the edit', async () => {
    const r = await run(
      [
        {
          tool_use: [
            { name: 'read', input: { file_path: 'a.txt' } },
            { name: 'edit', input: { file_path: 'a.txt', old_string: 'before', new_string: 'after' } },
            { name: 'read', input: { file_path: 'a.txt' } },
          ],
        },
        { text: 'done' },
      ],
      { tools: [readTool, editTool], files: { 'a.txt': 'before\n' } },
    );
    expect(r.of('tool_call').map((e) => [e.tool, e.batch, e.concurrency_safe])).toEqual([
      ['read', 0, true],
      ['edit', 1, false],
      ['read', 2, true],
    ]);
    const [first, , second] = r.results();
    expect(first!.content).toContain('before');
    expect(second!.content).toContain('after');
    expect(second!.content).not.toContain('before');
  });

  it('runs the reads of one batch at the same time (their execution intervals overlap)', async () => {
    const probe = timed(readTool, 40);
    await run([{ tool_use: reads(4) }, { text: 'done' }], { tools: [probe.tool], files: { 'a.txt': 'x\n' } });
    expect(probe.intervals).toHaveLength(4);
    expect(commonOverlap(probe.intervals)).toBeGreaterThan(0);
  });

  it('does not overlap the same reads under a pool of one (so the overlap test can fail)', async () => {
    const probe = timed(readTool, 40);
    await run([{ tool_use: reads(4) }, { text: 'done' }], {
      tools: [probe.tool],
      files: { 'a.txt': 'x\n' },
      scheduler: createScheduler({ maxConcurrency: 1 }),
    });
    expect(commonOverlap(probe.intervals)).toBeLessThanOrEqual(0);
  });

  it('treats a tool whose safety check throws as unsafe: its call runs alone in its own batch', async () => {
    const probe = timed(sleepTool);
    const throwing: Tool<{ ms: number }> = {
      ...probe.tool,
      name: 'flaky_sleep',
      isConcurrencySafe: () => {
        throw new Error('cannot judge this input');
      },
    };
    const r = await run(
      [{ tool_use: [{ name: 'sleep', input: { ms: 30 } }, { name: 'flaky_sleep', input: { ms: 30 } }, { name: 'sleep', input: { ms: 30 } }] }, { text: 'ok' }],
      { tools: [probe.tool, throwing] },
    );
    expect(r.of('tool_call').map((e) => [e.tool, e.batch, e.concurrency_safe])).toEqual([
      ['sleep', 0, true],
      ['flaky_sleep', 1, false],
      ['sleep', 2, true],
    ]);
    expect(probe.peak()).toBe(1);
  });

  it.each([
    ['the default of 10', undefined, 10],
    ['FAULTLINE_MAX_TOOL_CONCURRENCY=4', '4', 4],
  ])('never runs more than %s calls at once with 50 calls in one turn', async (_label, env, limit) => {
    if (env !== undefined) process.env.FAULTLINE_MAX_TOOL_CONCURRENCY = env;
    const probe = timed(sleepTool);
    const calls = Array.from({ length: 50 }, () => ({ name: 'sleep', input: { ms: 15 } }));
    const r = await run([{ tool_use: calls }, { text: 'ok' }], { tools: [probe.tool] });
    expect(r.of('tool_success')).toHaveLength(50);
    expect(probe.peak()).toBe(limit);
  });
});
