/**
 * A task's workspace in a directory faultline chose on its own (the RAM
 * tmpfs of workspace-tmpfs.ts), with the system temp directory behind it.
 *
 * Such a workspace is made at once, at the session's set-up, not at its first
 * tool call as LazyWorkspace otherwise does: its path is handed to the tools,
 * the sandbox and the model when the session starts, so it can only move
 * before then. When the place fails it (full: ENOSPC, EDQUOT; unmounted:
 * ENOENT; read-only or refused), the session gets a workspace in the temp
 * directory instead and does not fail, and every later workspace of this
 * thread goes there too: a tmpfs that filled once is not tried again. Any
 * other failure (out of descriptors, a fixture path that is a file and a
 * directory) is not the place's: the session gets a lazy workspace in the
 * same place, made at its first tool call as anywhere else. Making it early
 * costs a session that calls no tool one directory on the tmpfs (microseconds).
 */
import { LazyWorkspace } from './workspace.js';

/** Errors that say the place itself cannot take workspaces. */
const PLACE_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'ENOENT', 'EROFS', 'EACCES', 'EPERM', 'EIO']);

/** Chosen directories that failed once on this thread. */
const abandoned = new Set<string>();

/** The session's workspace in `dir` (made) when the place can take it, else in the temp directory (lazy, as usual). */
export async function placeWorkspace(files: Record<string, string> | undefined, dir: string | undefined): Promise<LazyWorkspace> {
  if (dir === undefined || abandoned.has(dir)) return new LazyWorkspace(files);
  const chosen = new LazyWorkspace(files, dir);
  try {
    await chosen.ensure();
    return chosen;
  } catch (error) {
    await chosen.remove();
    const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (code === undefined || !PLACE_ERRORS.has(code)) return new LazyWorkspace(files, dir);
    abandoned.add(dir);
    return new LazyWorkspace(files);
  }
}

/** Forgets the failures (tests). */
export function resetAbandoned(): void {
  abandoned.clear();
}
