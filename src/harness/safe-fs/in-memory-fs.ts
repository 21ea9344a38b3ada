/**
 * Whether a directory is on a file system held in memory (tmpfs, ramfs),
 * where removing an entry or freeing an inode never waits on a disk.
 *
 * Why it matters: on a journaled disk an unlink, an rmdir or the close that
 * frees an inode can wait milliseconds on the journal, so those calls go
 * through the thread pool (remove-tree.ts) and the main thread is not held.
 * In memory they take a few microseconds, less than the hand-off to the pool
 * (a promise, a worker's wake-up, the loop's) costs: a workspace removal's
 * async unlink and rmdir took 107 ms of the main thread in a 2,000-task run
 * on /dev/shm at -j 32 (CPU profile). Anything not known to be in memory is
 * treated as a disk, as before.
 */
import { statfsSync } from 'node:fs';

/** statfs(2) f_type of tmpfs and ramfs (linux/magic.h). */
const IN_MEMORY_TYPES = new Set([0x01021994, 0x858458f6]);

const known = new Map<string, boolean>();

/** True when `dir` is on tmpfs or ramfs; asked once per directory name (a run's workspaces share one parent). */
export function isInMemoryFs(dir: string): boolean {
  let answer = known.get(dir);
  if (answer === undefined) {
    try {
      answer = IN_MEMORY_TYPES.has(Number(statfsSync(dir).type));
    } catch {
      answer = false;
    }
    if (known.size >= 64) known.clear();
    known.set(dir, answer);
  }
  return answer;
}
