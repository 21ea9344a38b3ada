/**
 * Snapshots can be written back: a real agent run (real SDK + msw) edits a
 * file and creates another, each call is snapshotted with a `snapshot`
 * event, and restoreSnapshot gives back the exact bytes and removes what did
 * not exist. Links planted in the workspace after the snapshot cannot
 * redirect the restore outside it.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter, type FaultlineEvent } from '../../src/events/index.js';
import { SNAPSHOT_SUBDIR } from '../../src/harness/pipeline/session-services.js';
import { restoreSnapshot } from '../../src/harness/pipeline/snapshot-restore.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { removeAfterFile, tempDir } from '../helpers/temp-dirs.js';
import { runPipeline } from './run-pipeline.js';

afterAll(() => stopMockHub());

// Bytes a text round trip would change: CRLF, a lone CR, no final newline, invalid UTF-8.
const ORIGINAL = Buffer.from([0x61, 0x6c, 0x70, 0x68, 0x61, 0x0d, 0x0a, 0xff, 0xfe, 0x0d, 0x62, 0x65, 0x74, 0x61]);

async function editAndCreate() {
  return runPipeline(
    [
      { tool_use: [{ name: 'read', id: 'toolu_r', input: { file_path: 'sub/a.txt' } }] },
      {
        tool_use: [
          { name: 'edit', id: 'toolu_e', input: { file_path: 'sub/a.txt', old_string: 'alpha', new_string: 'omega' } },
          { name: 'write', id: 'toolu_w', input: { file_path: 'sub/new.txt', content: 'fresh\n' } },
        ],
      },
      { text: 'done' },
    ],
    {
      prepare: (ws) => {
        mkdirSync(join(ws, 'sub'));
        writeFileSync(join(ws, 'sub', 'a.txt'), ORIGINAL, { mode: 0o640 });
      },
    },
  );
}

function restorer(workspace: string) {
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-test').session('s1', 'task-1');
  const restore = (id: string) => restoreSnapshot({ workspace, snapshotDir: join(workspace, SNAPSHOT_SUBDIR), id, emitter });
  const restored = () => sink.events().filter((e): e is Extract<FaultlineEvent, { event: 'snapshot' }> => e.event === 'snapshot');
  return { restore, restored };
}

function takenIds(run: Awaited<ReturnType<typeof editAndCreate>>): Record<string, string> {
  return Object.fromEntries(run.of('snapshot').map((e) => [e.tool_use_id, e.snapshot_id]));
}

describe('restoring a snapshot', () => {
  it('emits a snapshot event per changing call, and a restore brings back the exact bytes and removes the file that did not exist', async () => {
    const run = await editAndCreate();
    const ws = run.workspace;
    expect(run.of('tool_success').map((e) => e.tool)).toEqual(['read', 'edit', 'write']);
    expect(readFileSync(join(ws, 'sub', 'a.txt')).subarray(0, 5).toString()).toBe('omega');
    expect(readFileSync(join(ws, 'sub', 'new.txt'), 'utf8')).toBe('fresh\n');
    // Taken: one per changing call (the read is not snapshotted), before the call's result.
    expect(run.of('snapshot')).toEqual([
      expect.objectContaining({ turn: 2, tool: 'edit', tool_use_id: 'toolu_e', snapshot_action: 'taken', snapshot_files: 1, snapshot_created: 0, snapshot_skipped: 0 }),
      expect.objectContaining({ turn: 2, tool: 'write', tool_use_id: 'toolu_w', snapshot_action: 'taken', snapshot_files: 0, snapshot_created: 1, snapshot_skipped: 0 }),
    ]);
    const ids = takenIds(run);
    const { restore, restored } = restorer(ws);

    const edit = await restore(ids.toolu_e!);
    expect(edit).toEqual({ id: ids.toolu_e, restored: ['sub/a.txt'], removed: [], refused: [] });
    expect(readFileSync(join(ws, 'sub', 'a.txt')).equals(ORIGINAL)).toBe(true);
    expect(statSync(join(ws, 'sub', 'a.txt')).mode & 0o777).toBe(0o640);

    const write = await restore(ids.toolu_w!);
    expect(write).toEqual({ id: ids.toolu_w, restored: [], removed: ['sub/new.txt'], refused: [] });
    expect(existsSync(join(ws, 'sub', 'new.txt'))).toBe(false);

    expect(restored()).toEqual([
      expect.objectContaining({ turn: 2, tool: 'edit', tool_use_id: 'toolu_e', snapshot_action: 'restored', snapshot_id: ids.toolu_e, snapshot_files: 1, snapshot_created: 0, snapshot_skipped: 0 }),
      expect.objectContaining({ turn: 2, tool: 'write', tool_use_id: 'toolu_w', snapshot_action: 'restored', snapshot_id: ids.toolu_w, snapshot_files: 0, snapshot_created: 1, snapshot_skipped: 0 }),
    ]);
  });

  it('refuses to restore through a parent directory swapped for a symlink after the snapshot: nothing is written outside', async () => {
    const run = await editAndCreate();
    const ws = run.workspace;
    const outside = removeAfterFile(tempDir('faultline-outside-'));
    writeFileSync(join(outside, 'a.txt'), 'outside a\n');
    writeFileSync(join(outside, 'new.txt'), 'outside new\n');
    renameSync(join(ws, 'sub'), join(ws, 'sub-moved'));
    symlinkSync(outside, join(ws, 'sub'));
    const { restore, restored } = restorer(ws);
    const ids = takenIds(run);

    const edit = await restore(ids.toolu_e!);
    expect(edit.restored).toEqual([]);
    expect(edit.refused).toEqual([{ path: 'sub/a.txt', reason: expect.stringMatching(/symbolic link/) }]);
    const write = await restore(ids.toolu_w!);
    expect(write.removed).toEqual([]);
    expect(write.refused.map((r) => r.path)).toEqual(['sub/new.txt']);
    // The files outside are untouched, and the link is still a link.
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('outside a\n');
    expect(readFileSync(join(outside, 'new.txt'), 'utf8')).toBe('outside new\n');
    expect(lstatSync(join(ws, 'sub')).isSymbolicLink()).toBe(true);
    expect(restored().map((e) => [e.snapshot_files, e.snapshot_created, e.snapshot_skipped])).toEqual([
      [0, 0, 1],
      [0, 0, 1],
    ]);
  });

  it('replaces a file turned into a link (or a hard link) instead of writing through it, and removes a planted link without following it', async () => {
    const run = await editAndCreate();
    const ws = run.workspace;
    const outside = removeAfterFile(tempDir('faultline-outside-'));
    writeFileSync(join(outside, 'secret'), 'outside secret\n');
    writeFileSync(join(outside, 'hard'), 'outside hard\n');
    rmSync(join(ws, 'sub', 'a.txt'));
    symlinkSync(join(outside, 'secret'), join(ws, 'sub', 'a.txt'));
    rmSync(join(ws, 'sub', 'new.txt'));
    symlinkSync(join(outside, 'hard'), join(ws, 'sub', 'new.txt'));
    const { restore } = restorer(ws);
    const ids = takenIds(run);

    expect((await restore(ids.toolu_e!)).restored).toEqual(['sub/a.txt']);
    expect(lstatSync(join(ws, 'sub', 'a.txt')).isFile()).toBe(true);
    expect(readFileSync(join(ws, 'sub', 'a.txt')).equals(ORIGINAL)).toBe(true);
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('outside secret\n');

    expect((await restore(ids.toolu_w!)).removed).toEqual(['sub/new.txt']);
    expect(existsSync(join(ws, 'sub', 'new.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'hard'), 'utf8')).toBe('outside hard\n');
  });

  it('refuses an id that is not a snapshot name (no walking out of the snapshot directory)', async () => {
    const run = await editAndCreate();
    const { restore } = restorer(run.workspace);
    await expect(restore('../../sub')).rejects.toThrow(/not a snapshot id/);
    await expect(restore('9999-t9')).rejects.toThrow(/no manifest/);
    const id = takenIds(run).toolu_e!;
    writeFileSync(join(run.workspace, SNAPSHOT_SUBDIR, id, 'manifest.json'), '{"files": 3');
    await expect(restore(id)).rejects.toThrow(new RegExp(`snapshot ${id}: manifest.json is not a snapshot manifest`));
  });
});
