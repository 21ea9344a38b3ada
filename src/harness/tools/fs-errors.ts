/**
 * File-system errors the model can act on become `tool_error` results with the
 * errno as `errorCode` and a next step in the text. Anything else is rethrown:
 * an unexpected errno is a bug or a broken machine (`exception`), not something
 * the model should be asked to work around.
 */
import { errnoCode } from './workspace-path.js';
import type { ToolOutput } from './tool.js';

/** What the caller was doing, so the hint can name the right next tool. */
export type FsAction = 'read' | 'write' | 'edit' | 'list' | 'search';

export function fsErrorOutput(error: unknown, shownPath: string, action: FsAction): ToolOutput {
  const code = errnoCode(error);
  const text = code === undefined ? undefined : hint(code, shownPath, action);
  if (code === undefined || text === undefined) throw error;
  return { content: text, isError: true, errorCode: code };
}

/** The same result for a condition the tool detected itself (e.g. a directory passed to read). */
export function fsErrorFor(code: 'EISDIR' | 'ENOTDIR', shownPath: string, action: FsAction): ToolOutput {
  return fsErrorOutput(Object.assign(new Error(code), { code }), shownPath, action);
}

/** Result for a call whose signal fired: the pipeline classifies it by the signal, this only keeps the shape. */
export function abortedOutput(): ToolOutput {
  return { content: '(aborted before completion)', isError: true, errorCode: 'aborted' };
}

export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

function hint(code: string, path: string, action: FsAction): string | undefined {
  switch (code) {
    case 'ENOENT':
      return action === 'write'
        ? `Cannot create "${path}": a parent directory could not be created. Check the path with ls.`
        : action === 'edit'
          ? `File not found: "${path}". Check the path with ls or glob; to create a new file use write.`
          : `Not found: "${path}". Check the path with ls or glob (paths are relative to the workspace root).`;
    case 'EISDIR':
      return action === 'list'
        ? undefined
        : `"${path}" is a directory, not a file. Use ls to list it, or glob to find files inside it.`;
    case 'ENOTDIR':
      return action === 'list'
        ? `"${path}" is a file, not a directory. Use read to view it.`
        : `A part of "${path}" is a file, not a directory. Check the path with ls.`;
    case 'EEXIST':
      return `Cannot create "${path}": a file already exists where a directory is needed. Check the path with ls.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for "${path}". This file cannot be accessed; choose another path.`;
    case 'ENAMETOOLONG':
      return `The path "${path.slice(0, 200)}" is too long. Use a shorter path.`;
    case 'ELOOP':
      return `"${path}" has too many levels of symbolic links. Use a path that does not go through a symlink loop.`;
    default:
      return undefined;
  }
}
