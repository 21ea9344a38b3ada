/**
 * Closing the last descriptor of a directory whose name is already gone (a
 * workspace just removed) frees its inode, and on a journaled disk that close
 * waits on the journal: on this machine's ext4 (mounted with `discard`)
 * 95-380 us a close, 13-18 us of it CPU. Made on the main thread after each
 * workspace's removal, those closes took 731 ms of a 2,000-task run at -j 32
 * on /tmp (CPU profile of 5.4 s). So such a close is made on the thread pool
 * (2,000 removals 32 at once, unlink + rmdir + close: 180 us of the main
 * thread per removal with the close made there, 21 us with it on the pool).
 * A replaced file's close is not worth it: a small file's inode is freed in
 * 12-15 us, less than the hand-off to the pool costs on a busy machine.
 *
 * The descriptor stays open until the pool closes it, so it is counted in the
 * descriptor budget meanwhile (fd-budget.ts); when the budget is spent it is
 * closed at once, as before. Nothing uses the number after this call.
 */
import { close, closeSync } from 'node:fs';
import { tryAcquireDescriptors, type DescriptorLease } from './fd-budget.js';

/** Closes `fd` on the thread pool; `held`: the budget's share that already counts it, given back once it is closed. */
export function closeUnlinked(fd: number, held?: DescriptorLease): void {
  const lease = held ?? tryAcquireDescriptors(1);
  if (lease === null) {
    closeSync(fd);
    return;
  }
  close(fd, () => lease.release());
}
