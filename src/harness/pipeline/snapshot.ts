/**
 * Stage ②: before a mutating call runs, copy the files it may change so the
 * change can be rolled back (seed §5.4). Each snapshot records what
 * triggered it — the bash command (cut) or the tool and its paths — so a
 * person choosing among snapshots can tell "before git reset --hard" apart.
 *
 * Only files inside the workspace are copied (a snapshot of a refused
 * `cat a > /etc/passwd` must not copy /etc/passwd where the model can read
 * it), `.faultline/` is skipped, and sizes are capped. A snapshot problem
 * never fails the call: it is noted in the manifest.
 */
import { copyFile, lstat, mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { Tool } from '../tools/tool.js';
import { isInside } from '../tools/workspace-path.js';
import type { PipelineCall } from './call.js';
import { snapshotTargets } from './snapshot-targets.js';

export const SNAPSHOT_MAX_FILES = 50;
export const SNAPSHOT_MAX_BYTES = 5 * 1024 * 1024;

export interface SnapshotEntry {
  path: string;
  bytes: number;
}

export interface SnapshotManifest {
  tool: string;
  tool_use_id: string;
  turn: number;
  trigger: string;
  files: SnapshotEntry[];
  /** Paths that did not exist yet (a rollback deletes them). */
  created: string[];
  notes: string[];
}

let counter = 0;

/** Returns the snapshot's directory, or null when nothing needed saving. */
export async function snapshotStage(call: PipelineCall, tool: Tool, input: unknown, workspace: string, dir: string): Promise<string | null> {
  const plan = snapshotTargets(tool, input);
  if (!plan || plan.paths.length === 0) return null;
  const manifest: SnapshotManifest = { tool: tool.name, tool_use_id: call.block.id.slice(0, 128), turn: call.turn, trigger: plan.trigger, files: [], created: [], notes: [] };
  const target = join(dir, `${String(++counter).padStart(4, '0')}-t${call.turn}`);
  let bytes = 0;
  try {
    const root = await realpath(workspace);
    const queue = [...new Set(plan.paths)].map((p) => resolve(root, p));
    while (queue.length > 0) {
      const abs = queue.shift()!;
      const rel = relative(root, abs);
      if (!isInside(root, abs) || rel === '' || rel.split(/[\\/]/)[0] === '.faultline') continue;
      const stats = await lstat(abs).catch(() => null);
      if (!stats) {
        manifest.created.push(rel);
        continue;
      }
      if (stats.isDirectory()) {
        for (const entry of await readdir(abs)) queue.push(join(abs, entry));
        continue;
      }
      if (!stats.isFile()) continue; // symlinks and devices are not followed
      if (manifest.files.length >= SNAPSHOT_MAX_FILES || bytes + stats.size > SNAPSHOT_MAX_BYTES) {
        manifest.notes.push(`skipped ${rel}: snapshot size cap`);
        continue;
      }
      await mkdir(dirname(join(target, 'files', rel)), { recursive: true });
      await copyFile(abs, join(target, 'files', rel));
      manifest.files.push({ path: rel, bytes: stats.size });
      bytes += stats.size;
    }
  } catch (error) {
    manifest.notes.push(`snapshot incomplete: ${error instanceof Error ? error.message.slice(0, 200) : 'error'}`);
  }
  if (manifest.files.length === 0 && manifest.created.length === 0) return null;
  try {
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'manifest.json'), JSON.stringify(manifest, null, 2));
    return target;
  } catch {
    return null;
  }
}
