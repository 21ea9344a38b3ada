/**
 * Opening one directory entry for reading, as every safe-fs walk does at its last component.
 */
import { constants as C, openSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * How an entry is opened for reading: never through a link at the last component, never blocking (a FIFO opens
 * at once and is refused by its type), and without updating its access time where the kernel allows it. Why
 * O_NOATIME: on a `relatime` mount the first read of a file written since its last read (every fixture file, and
 * every file an edit just replaced) rewrites its inode's access time, a journaled change to the disk made only
 * because the harness looked. The kernel allows the flag on files the process owns (or with CAP_FOWNER), EPERM
 * otherwise: such a file is opened again without it.
 */
const READ_FLAGS = C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK;
const NOATIME: number = (C as { O_NOATIME?: number }).O_NOATIME ?? 0;

/** openSync of an entry with READ_FLAGS (O_NOATIME when permitted). */
export function openEntrySync(path: string): number {
  if (NOATIME !== 0) {
    try {
      return openSync(path, READ_FLAGS | NOATIME);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
  }
  return openSync(path, READ_FLAGS);
}

/** The same, through the thread pool (a FileHandle). */
export async function openEntry(path: string): Promise<FileHandle> {
  if (NOATIME !== 0) {
    try {
      return await open(path, READ_FLAGS | NOATIME);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
  }
  return open(path, READ_FLAGS);
}
