/**
 * What to hand bubblewrap for a path inside a writable root that must stay
 * read-only (`.git/hooks`, `.faultline`, a hooks directory the repository's
 * config names). bubblewrap resolves a bind's source and destination through
 * symlinks, so binding `ws/.faultline` when the model or the repository made
 * it a link to `~` or `..` would bind the host home (with its `.ssh`) or the
 * parent holding every task's workspace into the sandbox, and an absolute
 * link to a path absent inside makes every call fail to start.
 *
 * So the path is bound only as what it really is: its real path, when that
 * is inside one of the writable roots (a link from `.git/hooks` to
 * `tools/hooks` protects `tools/hooks`); nothing when it is missing, dangling
 * or resolves outside them (outside the writable roots the sandbox writes
 * nothing anyway). Source and destination are the same path, spelled from the
 * root as bound, so the mount point is never reached through a link.
 */
import { realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isInside } from '../tools/workspace-path.js';

export function readOnlyBindTarget(p: string, writableRoots: readonly string[]): string | null {
  let real: string;
  try {
    real = realpathSync(p);
  } catch {
    return null; // missing or dangling: nothing to protect, and nothing bubblewrap could bind
  }
  for (const root of writableRoots) {
    let realRoot: string;
    try {
      realRoot = realpathSync(root);
    } catch {
      continue;
    }
    // Spelled from the root as bound (`--bind root root`), so the mount point is where the sandbox sees it.
    if (real !== realRoot && isInside(realRoot, real)) return join(root, relative(realRoot, real));
  }
  return null;
}
