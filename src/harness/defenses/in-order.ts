/**
 * Hook defenses are judged one after the other, each once the one before it settled. Most hooks answer at once:
 * awaiting each of them anyway cost a promise and a trip through the microtask queue per defense, per call and per
 * turn (2,000 three-turn sessions: ~100,000 of them). Here plain answers are taken as they come and only a hook
 * that returns a promise is waited for; the order and what each step sees stay the same.
 */

/** A value now, or a promise of it when some step had to be waited for. */
export type Settles<T> = T | Promise<T>;

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Runs `step(0)` .. `step(count - 1)` in order, then `done()`: synchronously until a step returns a promise. */
export function inOrder<T>(count: number, step: (index: number) => unknown, done: () => T): Settles<T> {
  for (let i = 0; i < count; i++) {
    const answer = step(i);
    if (isPromiseLike(answer)) return rest(answer, i + 1, count, step, done);
  }
  return done();
}

async function rest<T>(pending: PromiseLike<unknown>, from: number, count: number, step: (index: number) => unknown, done: () => T): Promise<T> {
  await pending;
  for (let i = from; i < count; i++) await step(i);
  return done();
}
