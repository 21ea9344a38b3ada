/**
 * The file tools' use of a checked path: the path resolveWorkspacePath
 * approved is opened component by component below the workspace's real root
 * (safe-fs/beneath.ts), so the file used is the file checked — a component
 * swapped for a symlink between the check and the use is refused, never
 * followed. Refusals are tool results the model can act on.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { PathChangedError, type OpenedFile, type OpenedFileSync, openBeneath, openBeneathSync } from '../safe-fs/beneath.js';
import type { ToolOutput } from './tool.js';
import { resolveWorkspacePath, type WorkspacePath } from './workspace-path.js';

/** The refusal for a path that changed under the tool (or a link where none was checked). */
export function changedOutput(shown: string, error: PathChangedError): ToolOutput {
  return {
    content: `"${shown}" changed while the tool was using it (${error.message.replace(/^.*? is /, 'it is ')}), so nothing was done. Check the path with ls and try again.`,
    isError: true,
    errorCode: 'path_changed',
  };
}

/**
 * Opens the checked real path `checked` (absolute, below the workspace) for reading, parents made when asked.
 * `root` is the real root the check resolved (resolveWorkspacePath's `root`): given, it is not resolved again.
 */
export async function openChecked(workspace: string, checked: string, options: { createDirs?: boolean; root?: string } = {}): Promise<OpenedFile> {
  const root = options.root ?? (await realpath(workspace));
  return openBeneath(root, relative(root, checked), { createDirs: options.createDirs });
}

export { PathChangedError };

/** A checked path, and (when the one-walk step below succeeded) the file already open. */
export type LocatedFile = WorkspacePath & { opened?: OpenedFileSync };

/**
 * resolveWorkspacePath for a file tool that reads the file, in one walk in the common case. With the
 * session's real root held, the path as given is opened below it at once (openBeneathSync: every
 * component O_NOFOLLOW). If that succeeds no component is a link, so the path opened IS the real path
 * resolveWorkspacePath would have answered, and it was checked below the root by the walk itself. Anything
 * else (a link on the way — legitimate or not —, a missing or unreadable directory, a path outside)
 * takes the full resolution exactly as before; the caller then opens its answer (openCheckedSync).
 * The file found at once is returned as is, not in a promise: a descriptor handed over through an await stays
 * open while every other session's waiting continuation runs first (hundreds at `-j 1000`).
 */
export function locateFile(workspace: string, given: string, realRoot: string | undefined): LocatedFile | Promise<LocatedFile> {
  if (realRoot !== undefined && !given.includes('\0')) {
    const lexical = isAbsolute(given) ? resolve(given) : resolve(realRoot, given);
    const rel = relative(realRoot, lexical);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) {
      try {
        return { ok: true, path: lexical, relative: rel, root: realRoot, opened: openBeneathSync(realRoot, rel) };
      } catch {
        // decided by the full resolution below
      }
    }
  }
  return resolveWorkspacePath(workspace, given, realRoot);
}

/** The file locateFile found, opened for reading (already open when its one-walk step succeeded). */
export function openCheckedSync(found: Extract<LocatedFile, { ok: true }>): OpenedFileSync {
  return found.opened ?? openBeneathSync(found.root, relative(found.root, found.path));
}
