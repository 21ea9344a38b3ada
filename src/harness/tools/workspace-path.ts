/**
 * The tools' own confinement: resolve a model-given path and refuse anything
 * that lands outside the workspace once symlinks are followed. (The full
 * permission chain with protected paths comes later; this is the floor.)
 *
 * Tools must operate on the returned `path`, never on the string the model
 * sent: the returned path is the one that was checked. Its existing part is a
 * realpath; only the not-yet-existing tail is lexical.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolOutput } from './tool.js';

export type WorkspacePath =
  | {
      ok: true;
      /** Absolute path to operate on (symlinks in its existing part resolved). */
      path: string;
      /** The same path relative to the workspace, for text shown to the model (`.` for the root). */
      relative: string;
      /** The workspace's real root as this check resolved it (the use opens below it without resolving it again). */
      root: string;
    }
  | { ok: false; code: 'outside_workspace' | 'ELOOP' | 'invalid_path'; message: string };

/** Same bound as Linux's MAXSYMLINKS: a longer chain is a loop or an attack. */
const MAX_LINK_HOPS = 40;

/** `realRoot`: the workspace's real path when the caller already holds it (resolved once per session); absent: resolved here. */
export async function resolveWorkspacePath(workspace: string, given: string, realRoot?: string): Promise<WorkspacePath> {
  // fs calls throw a non-errno TypeError on NUL; a model-sent path must never reach them as an exception.
  if (given.includes('\0')) {
    return { ok: false, code: 'invalid_path', message: 'The path contains a NUL character. Send a plain file path.' };
  }
  const root = realRoot ?? (await realpath(workspace));
  // An absolute path spelled through a symlinked parent of the workspace (e.g. /tmp vs
  // /private/tmp) still compares equal, because both sides are realpaths.
  const lexical = isAbsolute(given) ? resolve(given) : resolve(root, given);
  const real = await realPathOf(lexical, 0);
  if (real === null) {
    return {
      ok: false,
      code: 'ELOOP',
      message: `Path "${given}" has too many levels of symbolic links. Use a path that does not go through a symlink loop.`,
    };
  }
  if (!isInside(root, real)) {
    return {
      ok: false,
      code: 'outside_workspace',
      message:
        `Path "${given}" resolves outside the workspace (${root}), so it was refused. ` +
        'Use a path inside the workspace, relative to its root (e.g. "src/index.ts").',
    };
  }
  return { ok: true, path: real, relative: relative(root, real) || '.', root };
}

/** True when `target` is `root` itself or below it. Both must be absolute and normalized. */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The refusal as a tool result (`tool_error`: the model can fix the path). */
export function refusal(result: Extract<WorkspacePath, { ok: false }>): ToolOutput {
  return { content: result.message, isError: true, errorCode: result.code };
}

/**
 * realpath of the nearest existing ancestor plus the missing tail. A dangling
 * symlink is followed through its target: writing to it would create the
 * target, which may be outside. Returns null on a symlink loop.
 */
async function realPathOf(path: string, hops: number): Promise<string | null> {
  if (hops > MAX_LINK_HOPS) return null;
  try {
    return await realpath(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ELOOP') return null;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const link = await danglingLinkTarget(path);
  if (link !== null) return realPathOf(resolve(dirname(path), link), hops + 1);
  const parent = dirname(path);
  if (parent === path) return path; // reached "/" without finding anything: cannot happen for a real root
  const realParent = await realPathOf(parent, hops);
  return realParent === null ? null : join(realParent, basename(path));
}

async function danglingLinkTarget(path: string): Promise<string | null> {
  try {
    const stats = await lstat(path);
    return stats.isSymbolicLink() ? await readlink(path) : null;
  } catch (error) {
    const code = errnoCode(error);
    // EINVAL: it stopped being a link between lstat and readlink (a concurrent swap); the use re-checks every component.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EINVAL') return null;
    throw error;
  }
}

export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
