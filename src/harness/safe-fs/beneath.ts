/**
 * Opening paths below a root without ever resolving a name twice: the
 * openat(2)-style walk every file operation the harness makes inside a
 * workspace goes through (tools, snapshots, spills, `expect.files`, cleanup).
 *
 * Why: a path checked as inside the workspace and then opened again by name
 * can be swapped for a symlink in between (a background process of the
 * model, a link the repository planted), and the open then lands outside.
 * Here every component is opened relative to the directory opened before
 * it, through `/proc/self/fd/<fd>/<name>` (the kernel resolves the magic
 * link to that exact directory, whatever its name points at now), with
 * O_NOFOLLOW: a component that is a symlink at the moment of use fails with
 * ELOOP/ENOTDIR instead of being followed. Callers resolve legitimate links
 * first (resolveWorkspacePath gives a real path), so only a swap or a link
 * planted after the check is refused.
 *
 * Without /proc (not Linux) the walk opens each component by its full name,
 * still with O_NOFOLLOW on each: a concurrent swap of a directory already
 * walked is then not caught (README, security section).
 */
import { closeSync, constants as C, existsSync, lstatSync, openSync, readlinkSync } from 'node:fs';
import { mkdir, open, readlink, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isInside } from '../tools/workspace-path.js';

/** Linux: a directory's entries can be named through its descriptor. */
export const HAS_PROC_FD = existsSync('/proc/self/fd');
/** A directory, never through a link at the last component. */
export const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;

/** A path component turned out to be a symlink or not a directory at the moment of use, or the open ended outside. */
export class PathChangedError extends Error {
  readonly code = 'path_changed';
}

/** An open directory and how to name entries inside it without resolving its path again. */
export interface OpenDir {
  readonly handle: FileHandle;
  /** The directory's absolute path as walked (for messages and fallbacks only). */
  readonly path: string;
  /** The name of `entry` inside this exact directory. */
  at(entry: string): string;
}

/** Wraps a directory handle (opened with O_DIRECTORY|O_NOFOLLOW) as an OpenDir. */
export function openDir(handle: FileHandle, path: string): OpenDir {
  return { handle, path, at: (entry) => (HAS_PROC_FD ? `/proc/self/fd/${handle.fd}/${entry}` : join(path, entry)) };
}

/** A name for the open directory or file itself (its entries are listed through it, not through its path). */
export function selfPath(handle: FileHandle, path: string): string {
  return HAS_PROC_FD ? `/proc/self/fd/${handle.fd}` : path;
}

/** Components of `rel` (a normalized relative path below root; '' or '.' is the root). */
export function components(rel: string): string[] {
  if (rel === '' || rel === '.') return [];
  const parts = rel.split(sep);
  if (parts.some((p) => p === '..' || p === '' || p === '.')) throw new PathChangedError(`not a plain relative path: ${rel}`);
  return parts;
}

function changed(path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'ENOTDIR') {
    // A plain file where a directory is needed keeps its errno (the model gets the usual hint); a link is refused as such.
    try {
      if (!lstatSync(path).isSymbolicLink()) return error as Error;
    } catch {
      // gone again: report it as changed
    }
    return new PathChangedError(`${path} is a symbolic link or not a directory at the moment of use; the harness does not follow it`);
  }
  return error as Error;
}

/**
 * Opens root/rel as a directory, one component at a time, never following a
 * link. `create` makes missing components (mode 0o777 & umask, or `mode`).
 */
export async function openDirBeneath(root: string, rel: string, options: { create?: boolean; mode?: number } = {}): Promise<OpenDir> {
  let dir = openDir(await open(root, DIR_FLAGS), root);
  try {
    for (const part of components(rel)) {
      const path = join(dir.path, part);
      let next: FileHandle;
      try {
        next = await open(dir.at(part), DIR_FLAGS);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !options.create) throw changed(path, error);
        await mkdir(dir.at(part), { mode: options.mode }).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        });
        next = await open(dir.at(part), DIR_FLAGS).catch((e: unknown) => {
          throw changed(path, e);
        });
      }
      await dir.handle.close();
      dir = openDir(next, path);
    }
    await assertInside(root, dir.handle.fd, dir.path);
    return dir;
  } catch (error) {
    await dir.handle.close().catch(() => undefined);
    throw error;
  }
}

/** Belt and braces: where the opened descriptor really is (Linux), inside root. */
async function assertInside(root: string, fd: number, shown: string): Promise<void> {
  if (!HAS_PROC_FD) return;
  const real = await readlink(`/proc/self/fd/${fd}`);
  if (!isInside(root, real)) throw new PathChangedError(`${shown} opened outside ${root} (${real})`);
}

export interface OpenedFile {
  readonly dir: OpenDir;
  readonly name: string;
  /** Null when the entry does not exist. */
  readonly handle: FileHandle | null;
}

/**
 * Opens the entry root/rel for reading without following a link at any
 * component (O_NONBLOCK: a FIFO opens at once and is refused by its type,
 * instead of blocking). The caller closes `dir.handle` and `handle`.
 */
export async function openBeneath(root: string, rel: string, options: { createDirs?: boolean } = {}): Promise<OpenedFile> {
  const parts = components(rel);
  const name = parts.pop();
  if (name === undefined) throw new PathChangedError('the workspace root itself is not a file');
  const dir = await openDirBeneath(root, parts.join(sep), { create: options.createDirs });
  try {
    const handle = await open(dir.at(name), C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
    await assertInside(root, handle.fd, join(dir.path, name)).catch(async (e: unknown) => {
      await handle.close();
      throw e;
    });
    return { dir, name, handle };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { dir, name, handle: null };
    await dir.handle.close();
    throw changed(join(dir.path, name), error);
  }
}

/** Closes what openBeneath opened. */
export async function closeOpened(opened: OpenedFile): Promise<void> {
  await opened.handle?.close().catch(() => undefined);
  await opened.dir.handle.close().catch(() => undefined);
}

/** Sync walk for the few synchronous callers (expectation checks): returns the directory's fd and its entry namer. */
export function openDirBeneathSync(root: string, rel: string): { fd: number; at: (entry: string) => string; close: () => void } {
  let fd = openSync(root, DIR_FLAGS);
  let path = root;
  try {
    for (const part of components(rel)) {
      const next = join(path, part);
      let nfd: number;
      try {
        nfd = openSync(HAS_PROC_FD ? `/proc/self/fd/${fd}/${part}` : next, DIR_FLAGS);
      } catch (error) {
        throw changed(next, error);
      }
      closeSync(fd);
      fd = nfd;
      path = next;
    }
    if (HAS_PROC_FD && !isInside(root, readlinkSync(`/proc/self/fd/${fd}`))) throw new PathChangedError(`${path} opened outside ${root}`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const dirFd = fd;
  const base = path;
  return { fd: dirFd, at: (entry) => (HAS_PROC_FD ? `/proc/self/fd/${dirFd}/${entry}` : join(base, entry)), close: () => closeSync(dirFd) };
}

/** root/rel relative to root, or null when it is not below root (both absolute). */
export function below(root: string, path: string): string | null {
  return isInside(root, path) ? relative(root, path) : null;
}

