/**
 * Stage ②: before a mutating call runs, copy the files it may change so the
 * change can be rolled back (docs/harness-rules.md#snapshot). Each snapshot records what
 * triggered it — the bash command (cut) or the tool and its paths — so a
 * person choosing among snapshots can tell "before git reset --hard" apart.
 *
 * It runs after the policy (permission chain, defenses), right before the
 * call executes: a refused call snapshots nothing. (Taken before the
 * permission check, a snapshot taken for a refused `rm
 * link/id_rsa` copied the outside file where the model could read it.)
 *
 * Every read and write is made below the workspace's real root without
 * following a link at any component (safe-fs/beneath.ts): a target reached
 * through a symlink — to a parent, to the home directory, dangling — is not
 * copied, a symlink itself is not followed, and the snapshot directory
 * (`.faultline/snapshots`) is created the same way, so a `.faultline` link
 * planted by the model or the repository cannot redirect it (the snapshot
 * is then skipped, never written elsewhere). `.faultline/` is not copied;
 * sizes are capped. A snapshot problem never fails the call: it is noted in
 * the manifest. Each snapshot taken is announced as a `snapshot` event; it
 * can be written back with restoreSnapshot (snapshot-restore.ts).
 */
import { fstatSync, readdirSync, readFile, realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { below, closeOpenedSync, openBeneathSync, openDirAt, selfPath } from '../safe-fs/beneath.js';
import { readToEndSync } from '../safe-fs/read-to-end.js';
import { createExclusive } from '../safe-fs/replace-file.js';
import type { SessionEmitter } from '../../events/emitter.js';
import type { Tool } from '../tools/tool.js';
import type { PipelineCall } from './call.js';
import { snapshotTargets } from './snapshot-targets.js';
import { openStateDir } from '../safe-fs/state-dir.js';
import type { SnapshotMemory } from './snapshot-memory.js';
import type { SnapshotManifest } from './snapshot-manifest.js';

export type { SnapshotEntry, SnapshotManifest } from './snapshot-manifest.js';

export const SNAPSHOT_MAX_FILES = 50;
export const SNAPSHOT_MAX_BYTES = 5 * 1024 * 1024;
/** Files up to this size are copied with a synchronous read (microseconds, no thread-pool round trip); larger ones asynchronously. */
const SYNC_READ_BYTES = 256 * 1024;
const readFileAsync = promisify(readFile);

let counter = 0;

/** Where the `snapshot` event goes; absent: none is emitted. */
export interface SnapshotEvents {
  emitter: SessionEmitter;
  label: string;
}

/**
 * Returns the snapshot's directory (held in `memory`: its id), or null when nothing needed saving (or it could not
 * be saved inside the workspace). With `memory` (a workspace deleted when its session ends) the snapshot is held
 * there while it fits (snapshot-memory.ts), else written below `dir` as always.
 */
export async function snapshotStage(
  call: PipelineCall,
  tool: Tool,
  input: unknown,
  workspace: string,
  dir: string,
  events?: SnapshotEvents,
  memory?: SnapshotMemory | null,
  realRoot?: string,
): Promise<string | null> {
  const plan = snapshotTargets(tool, input);
  if (!plan || plan.paths.length === 0) return null;
  const manifest: SnapshotManifest = { tool: tool.name, label: events?.label ?? tool.name, tool_use_id: call.block.id.slice(0, 128), turn: call.turn, trigger: plan.trigger, files: [], created: [], notes: [] };
  const name = `${String(++counter).padStart(4, '0')}-t${call.turn}`;
  const copies: { rel: string; data: Buffer }[] = [];
  let root: string;
  try {
    root = realRoot ?? (await realpath(workspace));
  } catch {
    return null;
  }
  let bytes = 0;
  try {
    const queue: string[] = [];
    for (const p of new Set(plan.paths)) {
      const rel = realRel(root, resolve(root, p));
      if (rel !== null) queue.push(rel);
    }
    while (queue.length > 0) {
      const rel = queue.shift()!;
      if (rel === '' || rel.split(/[\\/]/)[0] === '.faultline') continue;
      let opened;
      try {
        opened = openBeneathSync(root, rel);
      } catch {
        continue; // a link at any component: not followed, not copied
      }
      try {
        if (opened.fd === null) {
          manifest.created.push(rel);
          continue;
        }
        // Metadata and small copies synchronously, from the descriptor just opened (never by name again).
        const stats = fstatSync(opened.fd);
        if (stats.isDirectory()) {
          for (const entry of readdirSync(selfPath({ fd: opened.fd }, join(root, rel)))) queue.push(join(rel, entry));
          continue;
        }
        if (!stats.isFile()) continue; // devices, FIFOs: never read
        if (copies.length >= SNAPSHOT_MAX_FILES || bytes + stats.size > SNAPSHOT_MAX_BYTES) {
          manifest.notes.push(`skipped ${rel}: snapshot size cap`);
          continue;
        }
        const data = stats.size <= SYNC_READ_BYTES ? readToEndSync(opened.fd, stats.size) : await readFileAsync(opened.fd);
        copies.push({ rel, data });
        manifest.files.push({ path: rel, bytes: data.length, mode: stats.mode & 0o7777 });
        bytes += data.length;
      } finally {
        closeOpenedSync(opened);
      }
    }
  } catch (error) {
    manifest.notes.push(`snapshot incomplete: ${error instanceof Error ? error.message.slice(0, 200) : 'error'}`);
  }
  if (manifest.files.length === 0 && manifest.created.length === 0) return null;
  const saved = memory?.keep(name, manifest, copies) ? name : await saveSnapshot(workspace, root, dir, name, manifest, copies);
  if (saved && events) {
    events.emitter.emit('snapshot', {
      turn: call.turn,
      tool: events.label,
      tool_use_id: call.block.id,
      snapshot_action: 'taken',
      snapshot_id: name,
      snapshot_files: manifest.files.length,
      snapshot_created: manifest.created.length,
      snapshot_skipped: manifest.notes.length,
    });
  }
  return saved;
}

/**
 * The path relative to the real root, with its parent's links resolved (a
 * command changes the entry itself, not what a last-component link points
 * at); null when the parent is outside the workspace or missing.
 */
function realRel(root: string, abs: string): string | null {
  let parent: string;
  try {
    // The real root is its own real path (the walk below opens it with O_NOFOLLOW all the same).
    parent = dirname(abs) === root ? root : realpathSync.native(dirname(abs));
  } catch {
    return null; // no parent: nothing there to save, and a created path under a missing directory is not a rollback concern
  }
  return below(root, join(parent, basename(abs)));
}

/** Writes the copies and the manifest below the workspace, never through a link; null when that cannot be done. */
async function saveSnapshot(workspace: string, root: string, dir: string, name: string, manifest: SnapshotManifest, copies: { rel: string; data: Buffer }[]): Promise<string | null> {
  try {
    // The snapshot's directory is walked to once; each copy's folder is opened below that descriptor.
    const top = await openStateDir(workspace, root, dir, name);
    try {
      for (const { rel, data } of copies) {
        const into = await openDirAt(top, join('files', dirname(rel)), { create: true, mode: 0o700 });
        try {
          await createExclusive(into, basename(rel), data);
        } finally {
          await into.handle.close();
        }
      }
      await createExclusive(top, 'manifest.json', JSON.stringify(manifest, null, 2));
    } finally {
      await top.handle.close();
    }
    return top.path;
  } catch {
    return null;
  }
}
