/**
 * Where the harness keeps its per-session state (spills, snapshots): by
 * default a directory below the workspace (`.faultline/…`), because the
 * model reads its spills back with the read tool, which is confined to the
 * workspace. Being inside the model's tree, it is only ever created and
 * written through safe-fs/beneath.ts (no link followed at any component),
 * so a `.faultline` symlink planted by the model or the repository makes the
 * harness skip the state, never write it elsewhere. A directory a library
 * caller puts outside the workspace is the caller's own, made by name.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { relative } from 'node:path';
import { openDirBeneath, type OpenDir } from './beneath.js';
import { isInside } from '../tools/workspace-path.js';

/**
 * Opens (making it) `dir`/`sub`: below the workspace's real root `root`
 * (`workspace` as given may be spelled through a link) without following
 * links, else by name.
 */
export async function openStateDir(workspace: string, root: string, dir: string, sub = ''): Promise<OpenDir> {
  for (const base of [workspace, root]) {
    if (isInside(base, dir) && relative(base, dir) !== '') return openDirBeneath(root, relative(base, dir) + (sub ? `/${sub}` : ''), { create: true, mode: 0o700 });
  }
  await mkdir(dir, { recursive: true });
  return openDirBeneath(await realpath(dir), sub, { create: true, mode: 0o700 });
}
