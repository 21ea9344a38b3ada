/**
 * Runs one hook function with a time limit. A hook is user code: it may
 * throw, hang, or return garbage. None of that may crash the harness or hold
 * the turn, so the outcome is data: `ok` with the value, `threw` or
 * `timed_out`. What each failure MEANS is decided by the stage that called it
 * (pre-tool-hook.ts blocks, post-tool-hook.ts passes) and documented there.
 */
export type HookCall<T> = { status: 'ok'; value: T } | { status: 'threw'; error: unknown } | { status: 'timed_out' };

export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;

export async function callHook<T>(run: () => T | Promise<T>, timeoutMs: number): Promise<HookCall<T>> {
  let first: T | Promise<T>;
  try {
    first = run();
  } catch (error) {
    return { status: 'threw', error };
  }
  // A synchronous answer needs no timer (and a synchronous hang cannot be timed out from JS anyway).
  if (!isThenable(first)) return { status: 'ok', value: first };
  const pending = first;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HookCall<T>>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timed_out' }), timeoutMs);
  });
  try {
    const work = Promise.resolve(pending).then(
      (value): HookCall<T> => ({ status: 'ok', value }),
      (error: unknown): HookCall<T> => ({ status: 'threw', error }),
    );
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
