/**
 * The process's budget of descriptors held across an await.
 *
 * Why: a file descriptor opened and closed inside one synchronous stretch of
 * code costs one slot of the table for microseconds; one held while its
 * holder waits (on the thread pool, a child process, the next turn) stays
 * taken while every other session runs. At `-j 1000` a thousand sessions
 * each holding a few such descriptors outgrow a 1024 limit, and the open
 * that fails (EMFILE) is some task's tool call. So every phase that holds
 * descriptors across awaits (a tool call, a workspace removal, a held
 * workspace root) takes its share here first and waits when the budget is
 * spent: at any concurrency the run stays within the limit, tasks queue
 * instead of failing.
 *
 * The budget is the limit less a reserve for what is not counted (standard
 * streams, the trace, the event loop's own descriptors, worker pipes, and the
 * few a synchronous stretch opens at once). Worker threads share the
 * process's descriptor table, so the count is one per process: an Int32Array
 * on a SharedArrayBuffer every thread updates with Atomics (the thread pool
 * hands the main thread's buffer to each worker as `workerData.fdBudget`).
 *
 * No holder waits while it holds: a phase takes all it needs at once and
 * gives it back at its end; held roots (pinned-root.ts) never wait, they are
 * simply not held past their cap. So waiting can never deadlock.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { softDescriptorLimit } from './descriptor-limit.js';

const CAPACITY = 0;
const USED = 1;
const PINS = 2;

/** The descriptors left out of the budget for what is not counted. */
export function reserveFor(limit: number): number {
  return Math.min(1024, Math.max(48, Math.floor(limit / 4)));
}

/** The budget of a process whose limit is `limit`. */
export function capacityFor(limit: number): number {
  return Math.max(8, limit - reserveFor(limit));
}

let cells: Int32Array | null = null;
function shared(): Int32Array {
  if (cells !== null) return cells;
  const given = isMainThread ? undefined : (workerData as { fdBudget?: unknown } | null)?.fdBudget;
  if (given instanceof SharedArrayBuffer) cells = new Int32Array(given);
  else {
    cells = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
    Atomics.store(cells, CAPACITY, capacityFor(softDescriptorLimit()));
  }
  return cells;
}

/** The buffer a worker thread adopts (`workerData.fdBudget`), so the process counts once. */
export function descriptorBudgetBuffer(): SharedArrayBuffer {
  return shared().buffer as SharedArrayBuffer;
}

/** The budget (descriptors) of this process. */
export function descriptorCapacity(): number {
  return Atomics.load(shared(), CAPACITY);
}

/** Descriptors counted as held now, by every thread. */
export function descriptorsHeld(): number {
  return Atomics.load(shared(), USED);
}

function take(n: number): boolean {
  const c = shared();
  const cap = Atomics.load(c, CAPACITY);
  for (;;) {
    const used = Atomics.load(c, USED);
    if (used + n > cap) return false;
    if (Atomics.compareExchange(c, USED, used, used + n) === used) return true;
  }
}

/** This thread's waiters, first come first served. */
const waiting: { n: number; wake: () => void }[] = [];
/** While someone waits: the poll that notices descriptors another thread gave back. */
let poll: NodeJS.Timeout | null = null;
const POLL_MS = 2;

function drain(): void {
  while (waiting.length > 0 && take(waiting[0]!.n)) waiting.shift()!.wake();
  if (waiting.length === 0 && poll !== null) {
    clearInterval(poll);
    poll = null;
  } else if (waiting.length > 0 && poll === null) {
    // Not unref'd: a thread whose sessions all wait on descriptors another thread holds must stay alive meanwhile.
    poll = setInterval(drain, POLL_MS);
  }
}

/** `n` descriptors held until `release` (once; later calls do nothing). */
export interface DescriptorLease {
  release(): void;
}

const NONE: DescriptorLease = { release: () => undefined };

function lease(n: number): DescriptorLease {
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      Atomics.sub(shared(), USED, n);
      if (waiting.length > 0) drain();
    },
  };
}

/** `n` descriptors now, or null when the budget is spent (or others already wait on this thread). Never waits. */
export function tryAcquireDescriptors(n: number): DescriptorLease | null {
  if (n <= 0) return NONE;
  const want = Math.min(n, descriptorCapacity());
  return waiting.length === 0 && take(want) ? lease(want) : null;
}

/**
 * `n` descriptors counted as held from now on, whether or not the budget has them: for descriptors already open
 * that no one could wait for (a socket a connection pool opened on its own, suites/connection-pool.ts). The
 * others wait while they are counted. Never waits.
 */
export function countDescriptors(n: number): DescriptorLease {
  if (n <= 0) return NONE;
  Atomics.add(shared(), USED, n);
  return lease(n);
}

/** `n` descriptors, waiting (in order of asking) while the budget is spent. */
export function acquireDescriptors(n: number): DescriptorLease | Promise<DescriptorLease> {
  const now = tryAcquireDescriptors(n);
  if (now !== null) return now;
  const want = Math.min(n, descriptorCapacity());
  return new Promise((resolve) => {
    waiting.push({ n: want, wake: () => resolve(lease(want)) });
    drain();
  });
}

/**
 * Held roots at most, whatever the budget. A held root saves an open and a close per walk (microseconds) and is
 * held while its session waits on the model: past a few hundred sessions at once (-j 1000) the descriptors are
 * worth more than the saving, and the sessions past the cap open their root by name, as without a pin.
 */
export const MAX_PINS = 256;

/**
 * One held root (pinned-root.ts): at most a quarter of the budget (and MAX_PINS) goes to them, so the phases that
 * wait always have the rest; never waits. Null: not held (its walks open the root by name).
 */
export function tryPinDescriptor(): DescriptorLease | null {
  const c = shared();
  const cap = Math.min(MAX_PINS, Math.floor(Atomics.load(c, CAPACITY) / 4));
  if (Atomics.add(c, PINS, 1) >= cap) {
    Atomics.sub(c, PINS, 1);
    return null;
  }
  const held = waiting.length === 0 && take(1) ? lease(1) : null;
  if (held === null) {
    Atomics.sub(c, PINS, 1);
    return null;
  }
  let pinned = true;
  return {
    release: () => {
      if (!pinned) return;
      pinned = false;
      Atomics.sub(c, PINS, 1);
      held.release();
    },
  };
}

/** An error of the process or the system running out of descriptors (EMFILE, ENFILE): the harness's shortage, never the model's doing. */
export function isDescriptorShortageError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'EMFILE' || code === 'ENFILE';
}

/** How long the harness waits out a descriptor shortage before it reports it (a call's exception, a session's error). */
export const SHORTAGE_WAIT_MS = 60_000;

/** The pause before the next try after a shortage: 5 ms, doubling with each `attempt`, at most 200 ms. */
export function shortagePause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(5 * 2 ** attempt, 200)));
}
