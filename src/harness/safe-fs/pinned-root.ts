/**
 * A workspace root held open for its whole session, so the safe-fs walks
 * (beneath.ts) start from that descriptor instead of opening the root by
 * name again for every read, snapshot, edit and `expect.files` check (an
 * open and a close each, four to six times a task).
 *
 * Why this is as strong as opening the root each time: the descriptor is
 * opened right after the harness made the directory itself (an exclusive
 * mkdir), with O_DIRECTORY|O_NOFOLLOW, exactly as each walk opened it; every
 * entry is then still named through `/proc/self/fd/<fd>/<name>` with
 * O_NOFOLLOW at each component. A workspace swapped for a link later is
 * never followed either way; with the held descriptor the walks keep working
 * in the directory the harness made, wherever its name now points.
 *
 * A borrower counts as a user: `unpinRoot` forgets the root at once (new
 * walks open it by name again), but the descriptor is closed only when the
 * last walk that borrowed it closed its directory. A tool body abandoned
 * after its timeout can therefore never find the number reused for another
 * task's file. Per thread, keyed by the exact root string; nothing outlives
 * the workspace.
 */
import { closeSync, constants as C, openSync } from 'node:fs';
import { closeUnlinked } from './close-unlinked.js';
import { tryPinDescriptor, type DescriptorLease } from './fd-budget.js';

interface Pin {
  readonly fd: number;
  /** Its share of the process's descriptor budget, given back when the descriptor is closed. */
  readonly lease: DescriptorLease;
  users: number;
  pinned: boolean;
}

const pins = new Map<string, Pin>();

/** A borrowed root descriptor; `release` once when done (never close `fd` itself). */
export interface BorrowedRoot {
  readonly fd: number;
  /**
   * `inBackground`: the directory was just removed from a disk, so the last close, which frees it, is made on the
   * thread pool (close-unlinked.ts).
   */
  release(inBackground?: boolean): void;
}

/** Re-exported: the limit the held roots and every other holder are budgeted from (fd-budget.ts). */
export { softDescriptorLimit } from './descriptor-limit.js';

/**
 * Opens `root` (a directory the caller just made, by its real path) and holds it until unpinRoot. Held roots take
 * their share of the process's descriptor budget and never wait for it (fd-budget.ts: at most a quarter of it, so
 * many sessions at once never run out because of the pins); past it, does nothing and the root's walks open it by
 * name, as without a pin.
 */
export function pinRoot(root: string): void {
  if (pins.has(root)) return;
  const lease = tryPinDescriptor();
  if (lease === null) return;
  let fd: number;
  try {
    fd = openSync(root, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  } catch (error) {
    lease.release();
    throw error;
  }
  pins.set(root, { fd, lease, users: 0, pinned: true });
}

function close(pin: Pin, inBackground = false): void {
  if (inBackground) return closeUnlinked(pin.fd, pin.lease);
  try {
    closeSync(pin.fd);
  } finally {
    pin.lease.release();
  }
}

/** The held descriptor of `root`, counted as in use until released; undefined when `root` is not pinned. */
export function borrowRoot(root: string): BorrowedRoot | undefined {
  const pin = pins.get(root);
  if (pin === undefined) return undefined;
  pin.users += 1;
  let released = false;
  return {
    fd: pin.fd,
    release: (inBackground = false) => {
      if (released) return;
      released = true;
      pin.users -= 1;
      if (!pin.pinned && pin.users === 0) close(pin, inBackground);
    },
  };
}

/** True while `root` is held (its path was the harness's own real path when pinned). */
export function isPinned(root: string): boolean {
  return pins.has(root);
}

/** Stops holding `root`: closed now, or when its last borrower releases it. Unknown roots are fine. */
export function unpinRoot(root: string): void {
  const pin = pins.get(root);
  if (pin === undefined) return;
  pins.delete(root);
  pin.pinned = false;
  if (pin.users === 0) close(pin);
}
