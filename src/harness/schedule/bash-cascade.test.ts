import { describe, expect, it } from 'vitest';
import { BashCascade, triggersCascade } from './bash-cascade.js';
import { CallPool } from './call-pool.js';
import { controlledRunOne, plannedCalls } from './test-calls.js';

describe('bash cascade', () => {
  it('is triggered only by a bash call that failed on its own, not by one that was cancelled', () => {
    expect(triggersCascade('bash', 'tool_error')).toBe(true);
    expect(triggersCascade('bash', 'timeout')).toBe(true);
    expect(triggersCascade('bash', 'permission_denied')).toBe(true);
    expect(triggersCascade('bash', null)).toBe(false);
    expect(triggersCascade('bash', 'aborted')).toBe(false);
    expect(triggersCascade('bash', 'cascade_skipped')).toBe(false);
    expect(triggersCascade('read', 'tool_error')).toBe(false);
  });

  it('cancels later bash calls only; earlier bash and other tools keep their signal', () => {
    const cascade = new BashCascade();
    const early = cascade.signalFor(0, 'bash');
    const running = cascade.signalFor(2, 'bash');
    const read = cascade.signalFor(3, 'read');
    cascade.settled(1, 'bash', 'tool_error');
    expect([early.aborted, running.aborted, read.aborted]).toEqual([false, true, false]);
    expect(cascade.signalFor(4, 'bash').aborted).toBe(true);
    expect(cascade.signalFor(5, 'edit').aborted).toBe(false);
  });

  /** [bash fails, read, bash, bash] in the pool; which calls see an aborted cancel signal when they start. */
  async function skippedWith(cascade: boolean): Promise<string[]> {
    const ctl = controlledRunOne();
    const pool = new CallPool({ limit: 10, runOne: ctl.runOne, cascade });
    for (const call of plannedCalls('BRBB')) pool.add(call);
    await ctl.finish('c0', { failureKind: 'tool_error' });
    await ctl.finish('c1');
    await ctl.finish('c2', { failureKind: ctl.signals.get('c2')!.aborted ? 'cascade_skipped' : null });
    await ctl.finish('c3', { failureKind: ctl.signals.get('c3')!.aborted ? 'cascade_skipped' : null });
    await pool.drained();
    return [...ctl.signals].filter(([, s]) => s.aborted).map(([id]) => id);
  }

  it('skips the later bash calls of the turn after a bash failure, and not the read between them', async () => {
    expect(await skippedWith(true)).toEqual(['c2', 'c3']);
  });

  it('skips nothing when the cascade is switched off (so the test above can fail)', async () => {
    expect(await skippedWith(false)).toEqual([]);
  });

  it('stops a later bash that is already running in the same concurrent batch', async () => {
    const ctl = controlledRunOne();
    const pool = new CallPool({ limit: 10, runOne: ctl.runOne });
    for (const call of plannedCalls('bbb')) pool.add(call);
    await ctl.finish('c1', { failureKind: 'tool_error' });
    expect(ctl.signals.get('c0')!.aborted).toBe(false);
    expect(ctl.signals.get('c2')!.aborted).toBe(true);
    await ctl.finish('c0');
    await ctl.finish('c2', { failureKind: 'aborted' });
    await pool.drained();
  });
});
