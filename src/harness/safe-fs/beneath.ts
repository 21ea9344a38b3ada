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
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isInside } from '../tools/workspace-path.js';
import { openEntry, openEntrySync } from './open-entry.js';
import { openRoot, SyncDir } from './sync-dir.js';

/** Linux: a directory's entries can be named through its descriptor. */
export const HAS_PROC_FD = existsSync('/proc/self/fd');
/** A directory, never through a link at the last component. */
export const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;

/** A path component turned out to be a symlink or not a directory at the moment of use, or the open ended outside. */
export class PathChangedError extends Error {
  readonly code = 'path_changed';
}

/** What the walk needs of an open directory: its descriptor and a way to close it (a FileHandle is one). */
export interface DirHandle {
  readonly fd: number;
  close(): Promise<void>;
}

/** An open directory and how to name entries inside it without resolving its path again. */
export interface OpenDir {
  readonly handle: DirHandle;
  /** The directory's absolute path as walked (for messages and fallbacks only). */
  readonly path: string;
  /** The name of `entry` inside this exact directory. */
  at(entry: string): string;
}

/** Wraps a directory handle (opened with O_DIRECTORY|O_NOFOLLOW) as an OpenDir. */
export function openDir(handle: DirHandle, path: string): OpenDir {
  return { handle, path, at: (entry) => (HAS_PROC_FD ? `/proc/self/fd/${handle.fd}/${entry}` : join(path, entry)) };
}

/** A name for the open directory or file itself (its entries are listed through it, not through its path). */
export function selfPath(handle: { readonly fd: number }, path: string): string {
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
 * Opens `part` inside the open directory `dir` as a directory, never through a link. The lookup is a
 * synchronous open (it never waits on the disk's journal); making a missing one (`create`) is a change
 * to the directory and stays async, as every write does: on a busy journaled disk it can wait milliseconds.
 */
async function stepInto(dir: OpenDir, part: string, options: { create?: boolean; mode?: number }): Promise<SyncDir> {
  const path = join(dir.path, part);
  try {
    return new SyncDir(openSync(dir.at(part), DIR_FLAGS));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !options.create) throw changed(path, error);
  }
  await mkdir(dir.at(part), { mode: options.mode }).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST') throw e;
  });
  try {
    return new SyncDir(openSync(dir.at(part), DIR_FLAGS));
  } catch (e) {
    throw changed(path, e);
  }
}

/**
 * Opens root/rel as a directory, one component at a time, never following a
 * link. `create` makes missing components (mode 0o777 & umask, or `mode`).
 */
export async function openDirBeneath(root: string, rel: string, options: { create?: boolean; mode?: number } = {}): Promise<OpenDir> {
  const parts = components(rel);
  const top = openDir(openRoot(root), root);
  const dir = await walkFrom(top, parts, options, true);
  if (parts.length > 0) {
    try {
      assertInside(root, dir.handle.fd, dir.path);
    } catch (error) {
      (dir.handle as SyncDir).closeNow();
      throw error;
    }
  }
  return dir;
}

/**
 * Opens `rel` below the open directory `from` the same way (a caller that
 * needs several directories below one it already holds walks from there, not
 * from the root again). `from` stays open and is the caller's to close.
 */
export async function openDirAt(from: OpenDir, rel: string, options: { create?: boolean; mode?: number } = {}): Promise<OpenDir> {
  return walkFrom(from, components(rel), options, false);
}

/** Walks `parts` down from `start`; closes each directory it leaves (and `start` when `ownsStart`); on error, closes what it opened. */
async function walkFrom(start: OpenDir, parts: readonly string[], options: { create?: boolean; mode?: number }, ownsStart: boolean): Promise<OpenDir> {
  let dir = start;
  let owned = ownsStart;
  try {
    for (const part of parts) {
      const next = await stepInto(dir, part, options);
      if (owned) (dir.handle as SyncDir).closeNow();
      dir = openDir(next, join(dir.path, part));
      owned = true;
    }
    return dir;
  } catch (error) {
    if (owned) (dir.handle as SyncDir).closeNow();
    throw error;
  }
}

/**
 * Belt and braces, once per walk (Linux): where the last directory opened
 * really is, inside root. Every step is an O_NOFOLLOW open of a plain name
 * relative to the directory before it, so only a directory renamed out of the
 * workspace while the walk ran can end elsewhere; the root itself is opened by
 * its real path, so a walk of no components needs no check.
 */
function assertInside(root: string, fd: number, shown: string): void {
  if (!HAS_PROC_FD) return;
  const real = readlinkSync(`/proc/self/fd/${fd}`);
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
  const dir = await walkFrom(openDir(openRoot(root), root), parts, { create: options.createDirs }, true);
  let handle: FileHandle | null = null;
  try {
    handle = await openEntry(dir.at(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      (dir.handle as SyncDir).closeNow();
      throw changed(join(dir.path, name), error);
    }
  }
  // The file was opened by a plain name (O_NOFOLLOW) in that directory: checking the directory after the open
  // covers the whole walk, the file's open included (one readlink instead of one per descriptor).
  if (parts.length > 0) {
    try {
      assertInside(root, dir.handle.fd, dir.path);
    } catch (error) {
      await handle?.close();
      (dir.handle as SyncDir).closeNow();
      throw error;
    }
  }
  return { dir, name, handle };
}

/** What openBeneathSync opened: the directory (a sync descriptor) and the entry's descriptor, null when it does not exist. */
export interface OpenedFileSync {
  readonly dir: OpenDir;
  readonly name: string;
  /** Set to null by a caller that hands the descriptor to something that closes it (a read stream). */
  fd: number | null;
}

/**
 * openBeneath without the thread pool, for a caller that then reads a small
 * file synchronously: the same O_NOFOLLOW walk, the same O_NONBLOCK open of
 * the entry, the same one check of where the directory really is. No
 * `createDirs` (making directories stays async, see stepInto). The caller
 * closes with closeOpenedSync.
 */
export function openBeneathSync(root: string, rel: string): OpenedFileSync {
  const parts = components(rel);
  const name = parts.pop();
  if (name === undefined) throw new PathChangedError('the workspace root itself is not a file');
  let dir = openDir(openRoot(root), root);
  let fd: number | null = null;
  try {
    for (const part of parts) {
      const path = join(dir.path, part);
      let next: SyncDir;
      try {
        next = new SyncDir(openSync(dir.at(part), DIR_FLAGS));
      } catch (error) {
        throw changed(path, error);
      }
      (dir.handle as SyncDir).closeNow();
      dir = openDir(next, path);
    }
    try {
      fd = openEntrySync(dir.at(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw changed(join(dir.path, name), error);
    }
    // After the entry's open, as in openBeneath: one check of the directory covers the whole walk.
    if (parts.length > 0) assertInside(root, dir.handle.fd, dir.path);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    (dir.handle as SyncDir).closeNow();
    throw error;
  }
  return { dir, name, fd };
}

/** Closes what openBeneathSync opened. */
export function closeOpenedSync(opened: OpenedFileSync): void {
  try {
    if (opened.fd !== null) closeSync(opened.fd);
  } finally {
    (opened.dir.handle as SyncDir).closeNow();
  }
}

/** Closes what openBeneath opened. */
export async function closeOpened(opened: OpenedFile): Promise<void> {
  await opened.handle?.close().catch(() => undefined);
  await opened.dir.handle.close().catch(() => undefined);
}

/** Sync walk for the few synchronous callers (expectation checks): returns the directory's fd and its entry namer. */
export function openDirBeneathSync(root: string, rel: string): { fd: number; at: (entry: string) => string; close: () => void } {
  let dir = openRoot(root);
  let path = root;
  try {
    for (const part of components(rel)) {
      const next = join(path, part);
      let nfd: number;
      try {
        nfd = openSync(HAS_PROC_FD ? `/proc/self/fd/${dir.fd}/${part}` : next, DIR_FLAGS);
      } catch (error) {
        throw changed(next, error);
      }
      dir.closeNow();
      dir = new SyncDir(nfd);
      path = next;
    }
    if (HAS_PROC_FD && path !== root && !isInside(root, readlinkSync(`/proc/self/fd/${dir.fd}`))) throw new PathChangedError(`${path} opened outside ${root}`);
  } catch (error) {
    dir.closeNow();
    throw error;
  }
  const held = dir;
  const base = path;
  return { fd: held.fd, at: (entry) => (HAS_PROC_FD ? `/proc/self/fd/${held.fd}/${entry}` : join(base, entry)), close: () => held.closeNow() };
}

/** root/rel relative to root, or null when it is not below root (both absolute). */
export function below(root: string, path: string): string | null {
  return isInside(root, path) ? relative(root, path) : null;
}

