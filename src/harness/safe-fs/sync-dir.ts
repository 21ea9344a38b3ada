/**
 * The descriptor of a directory in a safe-fs walk (beneath.ts), and the walk's
 * root: the session's held descriptor when its workspace is pinned
 * (pinned-root.ts), else opened by its real path.
 */
import { closeSync, constants as C, openSync } from 'node:fs';
import { borrowRoot } from './pinned-root.js';

/** A directory, never through a link at the last component (as beneath.ts's DIR_FLAGS). */
const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;

/**
 * A directory descriptor opened synchronously. Why sync: each step of the walk
 * is one metadata syscall of a few microseconds on the local workspace, while
 * the same call through the thread pool costs a promise, a worker hand-off and
 * a wake-up of the loop — most of the harness's file cost per tool call. File
 * contents are still read and written asynchronously by the callers.
 */
export class SyncDir {
  private open = true;
  /** `release`: the root was borrowed from its session's held descriptor (pinned-root.ts), given back instead of closed. */
  constructor(
    readonly fd: number,
    private readonly release?: () => void,
  ) {}
  close(): Promise<void> {
    this.closeNow();
    return Promise.resolve();
  }
  closeNow(): void {
    if (!this.open) return;
    this.open = false;
    if (this.release !== undefined) this.release();
    else closeSync(this.fd);
  }
}

/** The root of a walk: the session's held descriptor when its workspace is pinned, else opened by its real path (O_NOFOLLOW). */
export function openRoot(root: string): SyncDir {
  const held = borrowRoot(root);
  return held !== undefined ? new SyncDir(held.fd, held.release) : new SyncDir(openSync(root, DIR_FLAGS));
}
