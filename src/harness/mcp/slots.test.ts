import { describe, expect, it } from 'vitest';
import { Slots } from './slots.js';

describe('connect slots', () => {
  it('lets at most `size` holders in at once and the waiters in in order', async () => {
    const slots = new Slots(3);
    const order: number[] = [];
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const release = await slots.acquire();
        order.push(i);
        most = Math.max(most, ++inside);
        await new Promise((r) => setTimeout(r, 5));
        inside--;
        release();
        release(); // a second release is ignored
      }),
    );
    expect(most).toBe(3);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(slots.inUse).toBe(0);
  });

  it('rejects a waiter whose signal aborts, without taking a slot', async () => {
    const slots = new Slots(1);
    const held = await slots.acquire();
    const abort = new AbortController();
    const waiting = slots.acquire(abort.signal);
    abort.abort(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    held();
    const next = await slots.acquire();
    expect(slots.inUse).toBe(1);
    next();
  });
});
