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
import { dirname, join } from 'node:path';
import { DIR_FLAGS, HAS_PROC_FD } from './beneath.js';
import { isInMemoryFs } from './in-memory-fs.js';

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Removes `path` and everything below it; a missing path is fine; a link at `path` is unlinked, not followed.
 * Listing and opening a directory are synchronous calls on its descriptor (lookups of microseconds, where an
 * async call's thread-pool round trip cost several times the call); unlink and rmdir change the disk and stay
 * async: on a busy journaled disk they can wait milliseconds, which must not hold the event loop. (Measured on
 * this machine's ext4 mounted with `discard`: 2,000 unlink+rmdir pairs took 3.1-3.2 s of wall time made
 * synchronously, for 0.2 s of CPU — the time is spent waiting — and 0.5-1.0 s through the thread pool.) In memory
 * (tmpfs), where they never wait, the usual end (removeKnown) makes them synchronously: in-memory-fs.ts.
 */
export async function removeTree(path: string, held?: number, known: readonly string[] = []): Promise<void> {
  if (held !== undefined) return removeHeld(path, held, known);
  let fd: number;
  try {
    fd = openSync(path, DIR_FLAGS);
  } catch (error) {
    if (code(error) === 'ENOENT') return;
    if (code(error) === 'ENOTDIR' || code(error) === 'ELOOP') return unlink(path);
    throw error;
  }
  try {
    await empty(fd, path);
  } finally {
    closeSync(fd);
  }
  await rmdir(path);
}

/**
 * `path`'s directory already held open by the caller (its session's descriptor, pinned-root.ts): emptied through
 * that descriptor, which stays the caller's to close, then removed by name. Saves opening it once more. Its name
 * swapped since for a link or another directory: the directory emptied is still the one held (never a link's
 * target), and what is at the name is then removed as removeTree always did (a link unlinked, not followed).
 */
async function removeHeld(path: string, held: number, known: readonly string[]): Promise<void> {
  if (known.length > 0 && (await removeKnown(path, held, known))) return;
  await empty(held, path);
  try {
    await rmdir(path);
  } catch (error) {
    if (code(error) !== 'ENOTDIR' && code(error) !== 'ENOTEMPTY' && code(error) !== 'EEXIST') throw error;
    await removeTree(path);
  }
}

/**
 * The usual end of a task without listing the directory: the entries the caller knows it made (`known`: plain names
 * directly in it, e.g. the fixture files) unlinked through the held descriptor (unlink never follows a link: one left
 * there is removed itself; a name that became a directory fails and is left to the walk), then the directory removed.
 * True when that emptied it; false (anything else in it, the name swapped) sends the caller to the full walk.
 */
async function removeKnown(path: string, held: number, known: readonly string[]): Promise<boolean> {
  if (isInMemoryFs(dirname(path))) return removeKnownSync(path, held, known);
  for (const name of known) {
    await unlink(HAS_PROC_FD ? `/proc/self/fd/${held}/${name}` : join(path, name)).catch(() => undefined);
  }
  return rmdir(path).then(
    () => true,
    () => false,
  );
}

/** removeKnown made synchronously, where unlink and rmdir never wait on a disk (in-memory-fs.ts): the same calls. */
function removeKnownSync(path: string, held: number, known: readonly string[]): boolean {
  for (const name of known) {
    try {
      unlinkSync(HAS_PROC_FD ? `/proc/self/fd/${held}/${name}` : join(path, name));
    } catch {
      // as the async unlink's failure: the rmdir below tells whether the directory was emptied
    }
  }
  try {
    rmdirSync(path);
    return true;
  } catch {
    return false;
  }
}

async function empty(fd: number, path: string): Promise<void> {
  const at = (name: string) => (HAS_PROC_FD ? `/proc/self/fd/${fd}/${name}` : join(path, name));
  // Entry types (as lstat sees them) save a failed open per file: a non-directory is unlinked at once, through
  // the directory's descriptor. Swapped since the listing, the unlink fails on a directory (EISDIR/EPERM) and the
  // entry takes the open(O_NOFOLLOW) path below; a directory swapped for a link fails that open and is unlinked.
  for (const entry of readdirSync(at(''), { withFileTypes: true })) {
    const name = entry.name;
    if (!entry.isDirectory()) {
      const gone = await unlink(at(name)).then(
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
      await unlink(at(name)).catch((e: unknown) => {
        if (code(e) !== 'ENOENT') throw e;
      });
      continue;
    }
    try {
      await empty(sub, join(path, name));
    } finally {
      closeSync(sub);
    }
    await rmdir(at(name));
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
