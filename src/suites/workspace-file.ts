/**
 * What an `expect.files` check sees of a workspace path after the session.
 * The model had the tree for the whole session, so the path may be a link
 * to `~/.ssh/id_rsa`, to the parent directory, a dangling link, or a FIFO:
 * the check reads only below the workspace's real root, never following a
 * link at use (safe-fs/beneath.ts), and never blocks on a special file.
 * A link that stays inside the workspace counts as its target, as a person
 * looking at the workspace would see it.
 */
import { closeSync, fstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative } from 'node:path';
import { HAS_PROC_FD, openDirBeneathSync } from '../harness/safe-fs/beneath.js';
import { openEntrySync } from '../harness/safe-fs/open-entry.js';
import { isDescriptorShortageError } from '../harness/safe-fs/fd-budget.js';
import { readToEndSync } from '../harness/safe-fs/read-to-end.js';
import { fileKind } from '../harness/tools/regular-file.js';
import { isInside } from '../harness/tools/workspace-path.js';

export type WorkspaceFile =
  | { kind: 'missing' }
  | { kind: 'outside'; why: string }
  | { kind: 'directory' }
  | { kind: 'special'; what: string }
  | { kind: 'file'; text: string };

/** `full` is the lexical absolute path below `workspace` (already checked lexically by the caller). */
export function inspectWorkspaceFile(workspace: string, full: string): WorkspaceFile {
  return inspectDirect(workspace, full) ?? inspectResolved(workspace, full);
}

/**
 * The usual case in one walk, without resolving the path first: every component below the workspace opened
 * relative to the one before with O_NOFOLLOW (safe-fs/beneath.ts), so a path opened this way has no link in
 * it and is what the resolved path would have found. Null when it meets a link (or anything else unusual):
 * the resolving path then decides, as it always did (a link inside counts as its target, one outside is refused).
 */
function inspectDirect(workspace: string, full: string): WorkspaceFile | null {
  if (!HAS_PROC_FD) return null;
  const rel = relative(workspace, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  let dir;
  try {
    dir = openDirBeneathSync(workspace, dirname(rel));
  } catch {
    return null;
  }
  try {
    return readEntry(dir, basename(rel), (code): WorkspaceFile | null => (code === 'ENOENT' ? { kind: 'missing' } : null));
  } finally {
    dir.close();
  }
}

/** The entry `name` of the open directory `dir`, opened without following a link or blocking and read; `onOpenError` answers a failed open. */
function readEntry<T>(dir: { at(name: string): string }, name: string, onOpenError: (code: string | undefined, error: unknown) => T): WorkspaceFile | T {
  let fd: number;
  try {
    fd = openEntrySync(dir.at(name));
  } catch (error) {
    return onOpenError((error as NodeJS.ErrnoException).code, error);
  }
  try {
    return readOpened(fd);
  } finally {
    closeSync(fd);
  }
}

/** What is open at `fd` (opened without following a link and without blocking). */
function readOpened(fd: number): WorkspaceFile {
  const stats = fstatSync(fd);
  if (stats.isDirectory()) return { kind: 'directory' };
  if (!stats.isFile()) return { kind: 'special', what: fileKind(stats) };
  return { kind: 'file', text: readToEndSync(fd, stats.size).toString('utf8') };
}

/** Resolves the path first, then reads the real path below the workspace's real root. */
function inspectResolved(workspace: string, full: string): WorkspaceFile {
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return { kind: 'missing' }; // the workspace itself could not be made (the session is an error for that reason)
  }
  let real: string;
  try {
    real = realpathSync(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }; // a dangling link does not exist, as for existsSync
    if (code === 'ELOOP') return { kind: 'outside', why: 'it is a symbolic link loop' };
    throw error;
  }
  if (!isInside(root, real)) return { kind: 'outside', why: `it resolves outside the workspace (through a symbolic link), so it was not read` };
  const rel = relative(root, real);
  if (rel === '') return { kind: 'directory' };
  let dir;
  try {
    dir = openDirBeneathSync(root, dirname(rel));
  } catch (error) {
    // Out of descriptors is the harness's shortage, not a path the model left: the caller waits and checks again.
    if (isDescriptorShortageError(error)) throw error;
    return { kind: 'outside', why: error instanceof Error ? error.message : String(error) };
  }
  try {
    return readEntry(dir, basename(rel), (code, error): WorkspaceFile => {
      if (code === 'ENOENT') return { kind: 'missing' };
      if (code === 'ELOOP') return { kind: 'outside', why: 'it became a symbolic link while being checked' };
      throw error;
    });
  } finally {
    dir.close();
  }
}
