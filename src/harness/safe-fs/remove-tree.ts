/**
 * Removes a workspace at the end of a task without ever following a link
 * the model left in it. A remover that lists a directory by name and then
 * deletes `dir/child` by name (fs.rm, rimraf) can be turned outside when a
 * directory is swapped for a symlink to `~` between the two steps; here
 * each directory is opened with O_NOFOLLOW and its entries are removed
 * through that descriptor (safe-fs/beneath.ts), so a link is only ever
 * unlinked itself.
 */
import { closeSync, openSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { DIR_FLAGS, HAS_PROC_FD } from './beneath.js';

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Removes `path` and everything below it; a missing path is fine; a link at `path` is unlinked, not followed.
 * Listing and opening a directory are synchronous calls on its descriptor. The first SYNC_CHANGES unlinks and
 * rmdirs are synchronous too (a usual task's workspace: a handful of entries, each a local call of microseconds,
 * where the thread pool's round trip cost more than the call); past that the rest goes through the thread pool,
 * so a huge tree never holds the event loop for long.
 */
export async function removeTree(path: string): Promise<void> {
  const budget = { left: SYNC_CHANGES };
  let fd: number;
  try {
    fd = openSync(path, DIR_FLAGS);
  } catch (error) {
    if (code(error) === 'ENOENT') return;
    if (code(error) === 'ENOTDIR' || code(error) === 'ELOOP') return change(unlinkSync, unlink, path, budget);
    throw error;
  }
  try {
    await empty(fd, path, budget);
  } finally {
    closeSync(fd);
  }
  await change(rmdirSync, rmdir, path, budget);
}

/** Unlinks and rmdirs made synchronously per removeTree before the rest goes through the thread pool. */
const SYNC_CHANGES = 256;

/** One unlink or rmdir: synchronous while the budget lasts (errors thrown either way, as a rejection). */
async function change(sync: (p: string) => void, async: (p: string) => Promise<void>, path: string, budget: { left: number }): Promise<void> {
  if (budget.left > 0) {
    budget.left -= 1;
    sync(path);
    return;
  }
  await async(path);
}

async function empty(fd: number, path: string, budget: { left: number }): Promise<void> {
  const at = (name: string) => (HAS_PROC_FD ? `/proc/self/fd/${fd}/${name}` : join(path, name));
  // Entry types (as lstat sees them) save a failed open per file: a non-directory is unlinked at once, through
  // the directory's descriptor. Swapped since the listing, the unlink fails on a directory (EISDIR/EPERM) and the
  // entry takes the open(O_NOFOLLOW) path below; a directory swapped for a link fails that open and is unlinked.
  for (const entry of readdirSync(at(''), { withFileTypes: true })) {
    const name = entry.name;
    if (!entry.isDirectory()) {
      const gone = await change(unlinkSync, unlink, at(name), budget).then(
        () => true,
        (e: unknown) => {
          if (code(e) === 'ENOENT') return true;
          if (code(e) === 'EISDIR' || code(e) === 'EPERM') return false;
          throw e;
        },
      );
      if (gone) continue;
    }
    let sub: number;
    try {
      sub = openSync(at(name), DIR_FLAGS);
    } catch (error) {
      if (code(error) === 'ENOENT') continue;
      if (code(error) !== 'ENOTDIR' && code(error) !== 'ELOOP') throw error;
      await change(unlinkSync, unlink, at(name), budget).catch((e: unknown) => {
        if (code(e) !== 'ENOENT') throw e;
      });
      continue;
    }
    try {
      await empty(sub, join(path, name), budget);
    } finally {
      closeSync(sub);
    }
    await change(rmdirSync, rmdir, at(name), budget);
  }
}

/** The same, synchronously (removeWorkspace's callers are synchronous). */
export function removeTreeSync(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, DIR_FLAGS);
  } catch (error) {
    if (code(error) === 'ENOENT') return;
    if (code(error) === 'ENOTDIR' || code(error) === 'ELOOP') return unlinkSync(path);
    throw error;
  }
  try {
    emptySync(fd, path);
  } finally {
    closeSync(fd);
  }
  rmdirSync(path);
}

function emptySync(fd: number, path: string): void {
  const at = (name: string) => (HAS_PROC_FD ? `/proc/self/fd/${fd}/${name}` : join(path, name));
  for (const name of readdirSync(at(''))) {
    let sub: number;
    try {
      sub = openSync(at(name), DIR_FLAGS);
    } catch (error) {
      if (code(error) === 'ENOENT') continue;
      if (code(error) !== 'ENOTDIR' && code(error) !== 'ELOOP') throw error;
      try {
        unlinkSync(at(name));
      } catch (e) {
        if (code(e) !== 'ENOENT') throw e;
      }
      continue;
    }
    try {
      emptySync(sub, join(path, name));
    } finally {
      closeSync(sub);
    }
    rmdirSync(at(name));
  }
}
