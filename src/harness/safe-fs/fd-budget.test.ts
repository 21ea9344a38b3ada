import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  acquireDescriptors,
  capacityFor,
  descriptorBudgetBuffer,
  descriptorCapacity,
  descriptorsHeld,
  MAX_PINS,
  tryAcquireDescriptors,
  tryPinDescriptor,
  type DescriptorLease,
} from './fd-budget.js';

describe('descriptor budget', () => {
  it('is the limit less a reserve for what is not counted', () => {
    expect(capacityFor(1024)).toBe(768);
    expect(capacityFor(64)).toBe(16);
    expect(capacityFor(20)).toBe(8);
  });

  it('makes a phase wait while the budget is spent, first come first served, and never lets two past it', async () => {
    const all = tryAcquireDescriptors(descriptorCapacity());
    expect(all).not.toBeNull();
    expect(tryAcquireDescriptors(1)).toBeNull();
    const order: string[] = [];
    const first = Promise.resolve(acquireDescriptors(3)).then((l) => (order.push('first'), l));
    const second = Promise.resolve(acquireDescriptors(1)).then((l) => (order.push('second'), l));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    all!.release();
    all!.release(); // a second release gives nothing back twice
    const leases = await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(descriptorsHeld()).toBe(4);
    for (const l of leases) l.release();
    expect(descriptorsHeld()).toBe(0);
  });

  it('gives held roots at most a quarter of it (and MAX_PINS), and they never wait', () => {
    const pins: DescriptorLease[] = [];
    for (let p = tryPinDescriptor(); p !== null; p = tryPinDescriptor()) pins.push(p);
    expect(pins).toHaveLength(Math.min(MAX_PINS, Math.floor(descriptorCapacity() / 4)));
    const rest = tryAcquireDescriptors(descriptorCapacity() - pins.length);
    expect(rest).not.toBeNull();
    rest!.release();
    for (const p of pins) p.release();
    expect(descriptorsHeld()).toBe(0);
  });

  it('is one count for the process: a worker thread given the buffer spends the same budget', async () => {
    const mine = tryAcquireDescriptors(descriptorCapacity() - 2)!;
    // The worker takes 2 (all that is left), reports whether a third was refused, and keeps them until told.
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      const c = new Int32Array(workerData.fdBudget);
      const cap = Atomics.load(c, 0);
      const took = Atomics.compareExchange(c, 1, cap - 2, cap) === cap - 2;
      parentPort.postMessage({ took, used: Atomics.load(c, 1) });
      parentPort.once('message', () => { Atomics.sub(c, 1, 2); parentPort.postMessage('done'); });`;
    const worker = new Worker(source, { eval: true, workerData: { fdBudget: descriptorBudgetBuffer() } });
    const report = await new Promise<{ took: boolean; used: number }>((r) => worker.once('message', r));
    expect(report).toEqual({ took: true, used: descriptorCapacity() });
    expect(tryAcquireDescriptors(1)).toBeNull();
    mine.release();
    const waiting = Promise.resolve(acquireDescriptors(descriptorCapacity()));
    worker.postMessage('release');
    await new Promise((r) => worker.once('message', r));
    (await waiting).release(); // noticed by the poll, not by a release on this thread
    await worker.terminate();
    expect(descriptorsHeld()).toBe(0);
  });
});
