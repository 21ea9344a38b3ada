/**
 * The workspace's real path, resolved once per session instead of by every
 * stage of every call (the tool, the snapshot, the git-state walk each ran
 * realpath(3), which readlinks every component from `/`).
 *
 * Why this is as strong as resolving it each time: the root is only ever
 * used as the start of an O_NOFOLLOW walk (safe-fs/beneath.ts) and as the
 * bound a resolved path must lie below. If the workspace directory were
 * swapped for a symlink later in the session, opening the remembered real
 * path with O_NOFOLLOW fails instead of following the link, where a fresh
 * realpath would have followed it and taken its target for the root.
 *
 * Keyed by the session's PipelineServices object (one per session), so
 * nothing is kept across sessions; a different workspace string resolves
 * afresh.
 */
import { realpathSync } from 'node:fs';
import { isPinned } from '../safe-fs/pinned-root.js';
import type { PipelineServices } from './services.js';

const roots = new WeakMap<PipelineServices, { workspace: string; real: string }>();

/** The real path of `workspace` for this session; undefined when it cannot be resolved (callers then resolve it themselves). */
export function sessionRealRoot(services: PipelineServices, workspace: string): string | undefined {
  const held = roots.get(services);
  if (held !== undefined && held.workspace === workspace) return held.real;
  let real: string;
  try {
    // A workspace the suite runner made and holds open (safe-fs/pinned-root.ts) was made at its real path (the
    // temp directory resolved, then an exclusive mkdir of a plain name): nothing to resolve. Its walks start from
    // the held descriptor, so a swap of its name since is not followed either.
    real = isPinned(workspace) ? workspace : realpathSync.native(workspace);
  } catch {
    return undefined;
  }
  roots.set(services, { workspace, real });
  return real;
}
