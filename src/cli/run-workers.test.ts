import { describe, expect, it } from 'vitest';
import { defaultWorkers, runWorkers, WORKERS_FROM_SESSIONS } from './run-workers.js';

describe('the worker threads of a run', () => {
  it('defaults to one per two cores, at least one and at most 8', () => {
    expect([1, 2, 3, 4, 5, 8, 16, 17, 64].map((cores) => defaultWorkers(cores))).toEqual([1, 1, 1, 2, 2, 4, 8, 8, 8]);
  });

  it('runs a small suite on the main thread whatever the cores, and never more threads than -j or sessions', () => {
    expect(runWorkers(undefined, WORKERS_FROM_SESSIONS - 1, 32)).toBe(1);
    expect(runWorkers(undefined, WORKERS_FROM_SESSIONS, 32)).toBe(defaultWorkers());
    expect(runWorkers(6, 3, 32)).toBe(3);
    expect(runWorkers(6, 500, 2)).toBe(2);
    expect(runWorkers(4, 500, 32)).toBe(4);
  });
});
