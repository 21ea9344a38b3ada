import { describe, expect, it } from 'vitest';
import { batchesOf } from './batch-planner.js';
import { CallPool } from './call-pool.js';
import { controlledRunOne, flush, plannedCalls } from './test-calls.js';
import { createScheduler } from './scheduler.js';

describe('BatchPlanner', () => {
  it('merges only consecutive safe calls: [R, R, E, R, R] is three batches', () => {
    const calls = plannedCalls('RRERR');
    expect(calls.map((c) => c.batch)).toEqual([0, 0, 1, 2, 2]);
    expect(batchesOf(calls).map((b) => b.length)).toEqual([2, 1, 2]);
  });

  it('gives every unsafe call its own batch and keeps [Read a, Edit a, Read a] in three batches', () => {
    expect(plannedCalls('EE').map((c) => c.batch)).toEqual([0, 1]);
    expect(plannedCalls('RER').map((c) => c.batch)).toEqual([0, 1, 2]);
    expect(plannedCalls('RER').map((c) => c.concurrencySafe)).toEqual([true, false, true]);
  });
});

describe('CallPool', () => {
  it('runs the safe calls of one batch at the same time', async () => {
    const ctl = controlledRunOne();
    const pool = new CallPool({ limit: 10, runOne: ctl.runOne });
    for (const call of plannedCalls('RRR')) pool.add(call);
    await flush();
    expect(ctl.log).toEqual(['start:c0', 'start:c1', 'start:c2']);
    for (const id of ['c2', 'c0', 'c1']) await ctl.finish(id);
    await pool.drained();
  });

  it('never lets an unsafe call overlap another call, before or after it', async () => {
    const ctl = controlledRunOne();
    const pool = new CallPool({ limit: 10, runOne: ctl.runOne });
    for (const call of plannedCalls('RRERR')) pool.add(call);
    await flush();
    expect(ctl.log).toEqual(['start:c0', 'start:c1']);
    await ctl.finish('c0');
    expect(ctl.started('c2')).toBe(false); // c1 still runs
    await ctl.finish('c1');
    expect(ctl.log.at(-1)).toBe('start:c2');
    expect(ctl.started('c3')).toBe(false);
    await ctl.finish('c2');
    expect(ctl.log.slice(-2)).toEqual(['start:c3', 'start:c4']);
    await ctl.finish('c3');
    await ctl.finish('c4');
    await pool.drained();
  });

  it('refills a freed slot at once instead of waiting for the slowest call of a slice', async () => {
    const ctl = controlledRunOne();
    const pool = new CallPool({ limit: 3, runOne: ctl.runOne });
    for (const call of plannedCalls('RRRRRR')) pool.add(call);
    await flush();
    expect(ctl.log).toEqual(['start:c0', 'start:c1', 'start:c2']);
    await ctl.finish('c1'); // c0 and c2 still running: a slice would wait for them
    expect(ctl.log.at(-1)).toBe('start:c3');
    for (const id of ['c0', 'c2', 'c3', 'c4', 'c5']) await ctl.finish(id);
    await pool.drained();
    expect(ctl.peak()).toBe(3);
  });

  it('applies context modifiers in call order even when the calls finish in reverse', async () => {
    const ctl = controlledRunOne();
    const applied: number[] = [];
    const pool = new CallPool({ limit: 10, runOne: ctl.runOne });
    for (const call of plannedCalls('RRR')) pool.add(call);
    await flush();
    for (const i of [2, 1, 0]) await ctl.finish(`c${i}`, { failureKind: null, contextModifier: () => applied.push(i) });
    await pool.drained();
    expect(applied).toEqual([0, 1, 2]);
  });

  it('treats a runOne that throws as a failed call and still runs the rest', async () => {
    let ran = 0;
    const pool = new CallPool({
      limit: 2,
      runOne: async (call) => {
        ran++;
        if (call.block.id === 'c0') throw new Error('bug');
        return { failureKind: null };
      },
    });
    for (const call of plannedCalls('ERR')) pool.add(call);
    await pool.drained();
    expect(ran).toBe(3);
  });

  it('holds unsafe calls while told to, but lets safe calls run meanwhile', async () => {
    const ctl = controlledRunOne();
    let hold = true;
    const pool = new CallPool({ limit: 10, runOne: ctl.runOne, holdUnsafe: () => hold });
    for (const call of plannedCalls('RE')) pool.add(call);
    await flush();
    await ctl.finish('c0');
    expect(ctl.started('c1')).toBe(false);
    hold = false;
    pool.wake();
    expect(ctl.started('c1')).toBe(true);
    await ctl.finish('c1');
    await pool.drained();
  });
});

describe('createScheduler over a stream', () => {
  it('starts a call as soon as it arrives while later calls are still on their way', async () => {
    const ctl = controlledRunOne();
    const calls = plannedCalls('RRE');
    const gate = { open: () => undefined as void };
    const arrived = new Promise<void>((resolve) => (gate.open = resolve));
    async function* stream() {
      yield calls[0]!;
      await arrived; // the model is still streaming the rest
      yield calls[1]!;
      yield calls[2]!;
    }
    const done = createScheduler({ maxConcurrency: 10 }).run(stream(), ctl.runOne);
    await flush();
    expect(ctl.log).toEqual(['start:c0']);
    gate.open();
    await flush();
    expect(ctl.log).toEqual(['start:c0', 'start:c1']);
    await ctl.finish('c0');
    await ctl.finish('c1');
    await ctl.finish('c2');
    await done;
    expect(ctl.log.slice(-2)).toEqual(['start:c2', 'end:c2']);
  });
});
