/**
 * A synchronous check of the harness's own (a task's `files:` expectations
 * read the workspace) that ran out of descriptors: the shortage is the
 * harness's, so it must never read as the model's failure. The check is
 * made again once others had time to give theirs back; a shortage that
 * outlasts the wait ends the session as an error of the harness.
 */
import { isDescriptorShortageError, shortagePause, SHORTAGE_WAIT_MS } from '../harness/safe-fs/fd-budget.js';

/** A shortage that outlasted the wait: the session ends as an error (the harness's), not as a failed task. */
export class DescriptorShortageError extends Error {}

/** `check()` now; after an EMFILE/ENFILE, again (a promise) until it passes that point or `waitMs` passed. */
export function waitingOutShortage<T>(check: () => T, waitMs = SHORTAGE_WAIT_MS): T | Promise<T> {
  try {
    return check();
  } catch (error) {
    if (!isDescriptorShortageError(error)) throw error;
    return again(check, waitMs, error);
  }
}

async function again<T>(check: () => T, waitMs: number, first: unknown): Promise<T> {
  const started = performance.now();
  let last = first;
  for (let attempt = 0; performance.now() - started < waitMs; attempt++) {
    await shortagePause(attempt);
    try {
      return check();
    } catch (error) {
      if (!isDescriptorShortageError(error)) throw error;
      last = error;
    }
  }
  const message = last instanceof Error ? last.message : String(last);
  throw new DescriptorShortageError(`the harness ran out of file descriptors for ${Math.round(waitMs / 1000)} s while checking the task (${message})`);
}
