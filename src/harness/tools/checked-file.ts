/**
 * The file tools' use of a checked path: the path resolveWorkspacePath
 * approved is opened component by component below the workspace's real root
 * (safe-fs/beneath.ts), so the file used is the file checked — a component
 * swapped for a symlink between the check and the use is refused, never
 * followed. Refusals are tool results the model can act on.
 */
import { realpath } from 'node:fs/promises';
import { relative } from 'node:path';
import { PathChangedError, type OpenedFile, openBeneath } from '../safe-fs/beneath.js';
import type { ToolOutput } from './tool.js';

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
