/**
 * Writing a snapshot back (snapshot.ts takes them): the way a user rewinds a
 * file change they reject, or a failed edit that left a file half-changed.
 * Every saved file gets its exact saved bytes again; every path that did not
 * exist before the call is removed again.
 *
 * The workspace is the model's tree, and between the snapshot and the
 * restore anything may have been planted in it: a parent directory swapped
 * for a symlink to the home directory, the file itself turned into a link
 * or a hard link to a file outside. So nothing is written by name: each
 * parent is opened below the workspace's real root without following a link
 * at any component (safe-fs/beneath.ts), and the bytes go in as a new file
 * renamed over the name (safe-fs/replace-file.ts), which replaces a link
 * instead of writing through it. A path whose parent changed into a link is
 * refused and reported, never restored elsewhere.
 */
import { lstat, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { SessionEmitter } from '../../events/emitter.js';
import { closeOpened, components, openBeneath, openDirBeneath, PathChangedError, type OpenDir } from '../safe-fs/beneath.js';
import { removeTree } from '../safe-fs/remove-tree.js';
import { replaceFile } from '../safe-fs/replace-file.js';
import { isInside } from '../tools/workspace-path.js';
import type { SnapshotManifest } from './snapshot-manifest.js';
import type { SnapshotMemory } from './snapshot-memory.js';

/** Snapshot names as snapshot.ts makes them; anything else could walk out of the snapshot directory. */
const SNAPSHOT_ID = /^[0-9]{1,12}-t[0-9]{1,9}$/;

export interface RestoreOptions {
  /** The session's workspace. */
  workspace: string;
  /** The session's snapshot directory (PipelineServices.snapshotDir). */
  snapshotDir: string;
  /** The snapshot's id, as the `snapshot` event with `snapshot_action: taken` names it. */
  id: string;
  /** Where the `snapshot` event with `snapshot_action: restored` goes; absent: none. */
  emitter?: SessionEmitter;
  /** The session's snapshots held in memory (PipelineServices.snapshotMemory): one held there is read from it, any other from snapshotDir. */
  memory?: SnapshotMemory | null;
}

export interface RestoreResult {
  id: string;
  /** Paths written back with their saved bytes. */
  restored: string[];
  /** Paths that did not exist before the call, removed again (or already gone). */
  removed: string[];
  /** Paths not restored, with why (a component is now a link, a directory stands where a file was). */
  refused: { path: string; reason: string }[];
}

export class SnapshotNotFoundError extends Error {
  readonly code = 'snapshot_not_found';
}

export async function restoreSnapshot(options: RestoreOptions): Promise<RestoreResult> {
  if (!SNAPSHOT_ID.test(options.id)) throw new SnapshotNotFoundError(`not a snapshot id: ${JSON.stringify(options.id.slice(0, 64))}`);
  const root = await realpath(options.workspace);
  const held = options.memory?.get(options.id);
  const store = held ? null : await snapshotStore(options.workspace, root, options.snapshotDir);
  const manifest = held ? held.manifest : await readManifest(store!, options.id);
  const result: RestoreResult = { id: options.id, restored: [], removed: [], refused: [] };
  const modes = new Map(manifest.files.map((f) => [f.path, f.mode]));
  for (const { path } of manifest.files) {
    try {
      const data = held ? heldBytes(held.files, path) : await readSaved(store!, options.id, path);
      await writeBack(root, path, data, modes.get(path));
      result.restored.push(path);
    } catch (error) {
      result.refused.push({ path, reason: reasonOf(error) });
    }
  }
  for (const path of manifest.created) {
    try {
      await removeCreated(root, path);
      result.removed.push(path);
    } catch (error) {
      result.refused.push({ path, reason: reasonOf(error) });
    }
  }
  options.emitter?.emit('snapshot', {
    turn: manifest.turn,
    tool: manifest.label ?? manifest.tool,
    tool_use_id: manifest.tool_use_id,
    snapshot_action: 'restored',
    snapshot_id: options.id,
    snapshot_files: result.restored.length,
    snapshot_created: result.removed.length,
    snapshot_skipped: result.refused.length,
  });
  return result;
}

/** The snapshot directory as a root plus a prefix below it: below the workspace it is walked from the workspace's real root. */
async function snapshotStore(workspace: string, root: string, dir: string): Promise<{ base: string; prefix: string }> {
  for (const base of [workspace, root]) {
    if (isInside(base, dir) && relative(base, dir) !== '') return { base: root, prefix: relative(base, dir) };
  }
  return { base: await realpath(dir), prefix: '' };
}

async function readManifest(store: { base: string; prefix: string }, id: string): Promise<SnapshotManifest> {
  let text: string;
  try {
    text = (await readSaved(store, id, '', 'manifest.json')).toString('utf8');
  } catch (error) {
    throw new SnapshotNotFoundError(`snapshot ${id}: no manifest (${reasonOf(error)})`);
  }
  let manifest: SnapshotManifest;
  try {
    manifest = JSON.parse(text) as SnapshotManifest;
    if (!Array.isArray(manifest.files) || !Array.isArray(manifest.created)) throw new Error('no files/created lists');
  } catch (error) {
    throw new SnapshotNotFoundError(`snapshot ${id}: manifest.json is not a snapshot manifest (${reasonOf(error)})`);
  }
  // Paths come from a file inside the model's tree: only plain relative paths, never into the harness's own state.
  for (const p of [...manifest.files.map((f) => f.path), ...manifest.created]) {
    if (components(p)[0] === '.faultline') throw new PathChangedError(`snapshot ${id}: path inside the harness state: ${p}`);
  }
  return manifest;
}

/** A saved copy (or the manifest), opened without following a link. */
async function readSaved(store: { base: string; prefix: string }, id: string, rel: string, name = 'files'): Promise<Buffer> {
  const path = rel === '' ? join(store.prefix, id, name) : join(store.prefix, id, name, rel);
  const opened = await openBeneath(store.base, path);
  try {
    if (!opened.handle) throw Object.assign(new Error(`${path} is missing`), { code: 'ENOENT' });
    if (!(await opened.handle.stat()).isFile()) throw new Error(`${path} is not a file`);
    return await opened.handle.readFile();
  } finally {
    await closeOpened(opened);
  }
}

function heldBytes(files: ReadonlyMap<string, Buffer>, path: string): Buffer {
  const data = files.get(path);
  if (!data) throw new Error(`${path} is not in the snapshot`);
  return data;
}

async function writeBack(root: string, rel: string, data: Buffer, mode: number | undefined): Promise<void> {
  // Parents the call removed are made again; a parent that is now a link fails here (PathChangedError).
  const dir = await openDirBeneath(root, dirname(rel), { create: true });
  try {
    const name = basename(rel);
    const now = await lstat(dir.at(name)).catch(() => null);
    if (now?.isDirectory()) throw new Error(`${rel} is now a directory`);
    await replaceFile(dir, name, data, mode === undefined ? {} : { mode });
  } finally {
    await dir.handle.close();
  }
}

async function removeCreated(root: string, rel: string): Promise<void> {
  let dir: OpenDir;
  try {
    dir = await openDirBeneath(root, dirname(rel));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // its parent is gone: so is it
    throw error;
  }
  try {
    const name = basename(rel);
    const now = await lstat(dir.at(name)).catch(() => null);
    if (!now) return;
    // A link is removed itself, never what it points at; a directory the call made goes with what is in it.
    if (now.isDirectory()) await removeTree(dir.at(name));
    else await unlink(dir.at(name));
  } finally {
    await dir.handle.close();
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'error';
}
