import { describe, expect, it } from 'vitest';
import { defaultWorkers, runWorkers, sessionsStayHere, WORKERS_FROM_SESSIONS } from './run-workers.js';

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

  it('knows before the suite is read when the sessions stay on this thread (it then loads the bash grammar early)', () => {
    const mock = { opts: { provider: 'mock' }, mockOptions: { wire: undefined }, concurrency: 32 };
    expect(sessionsStayHere({ ...mock, workersAsked: undefined }, 2)).toBe(true);
    expect(sessionsStayHere({ ...mock, workersAsked: undefined }, 4)).toBe(false);
    expect(sessionsStayHere({ ...mock, workersAsked: 1 }, 16)).toBe(true);
    expect(sessionsStayHere({ ...mock, workersAsked: 2 }, 2)).toBe(false);
    expect(sessionsStayHere({ ...mock, workersAsked: 4, concurrency: 1 }, 16)).toBe(true);
    expect(sessionsStayHere({ ...mock, opts: { provider: 'anthropic' }, workersAsked: 4 }, 16)).toBe(true);
    expect(sessionsStayHere({ ...mock, opts: { provider: 'mock', record: 'rec' }, workersAsked: 4 }, 16)).toBe(true);
    expect(sessionsStayHere({ ...mock, opts: { provider: 'mock', replay: 'rec' }, workersAsked: 4 }, 16)).toBe(false);
  });
});
