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
import { closeSync, constants as C, openSync, readFileSync } from 'node:fs';

interface Pin {
  readonly fd: number;
  users: number;
  pinned: boolean;
}

const pins = new Map<string, Pin>();

/** A borrowed root descriptor; `release` once when done (never close `fd` itself). */
export interface BorrowedRoot {
  readonly fd: number;
  release(): void;
}

/**
 * Roots held at once (per thread) stay within a sixteenth of the process's descriptor limit: many sessions at once
 * (`-j 1000` under `ulimit -n 1024`) must not run out of descriptors because of the pins. Past it a workspace is
 * simply not pinned and its walks open the root by name, as without a pin. The limit is read once.
 */
let budget: number | null = null;
function pinBudget(): number {
  budget ??= Math.floor(softDescriptorLimit() / 16);
  return budget;
}

/** RLIMIT_NOFILE's soft value (Linux /proc); 1024, the usual default, when it cannot be read. */
export function softDescriptorLimit(): number {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (m !== null) return m[1] === 'unlimited' ? 1 << 20 : Number(m[1]);
  } catch {
    // not Linux
  }
  return 1024;
}

/** Opens `root` (a directory the caller just made, by its real path) and holds it until unpinRoot; past the budget, does nothing. */
export function pinRoot(root: string): void {
  if (pins.has(root) || pins.size >= pinBudget()) return;
  pins.set(root, { fd: openSync(root, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW), users: 0, pinned: true });
}

/** The held descriptor of `root`, counted as in use until released; undefined when `root` is not pinned. */
export function borrowRoot(root: string): BorrowedRoot | undefined {
  const pin = pins.get(root);
  if (pin === undefined) return undefined;
  pin.users += 1;
  let released = false;
  return {
    fd: pin.fd,
    release: () => {
      if (released) return;
      released = true;
      pin.users -= 1;
      if (!pin.pinned && pin.users === 0) closeSync(pin.fd);
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
  if (pin.users === 0) closeSync(pin.fd);
}
