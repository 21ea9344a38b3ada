/**
 * Snapshots held in memory (a workspace deleted when its session ends, as
 * `faultline run` makes them): the same capture and `snapshot` events as on
 * disk, nothing written to `.faultline/snapshots`, and restoreSnapshot gives
 * back the exact bytes from memory. A snapshot past the session's bound goes
 * to disk as before. A suite task run with --keep-workspaces still finds its
 * snapshots on disk; without it the session creates no `.faultline` at all.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import { SNAPSHOT_SUBDIR } from '../../src/harness/pipeline/session-services.js';
import { HeldBytesPool, SnapshotMemory } from '../../src/harness/pipeline/snapshot-memory.js';
import { restoreSnapshot } from '../../src/harness/pipeline/snapshot-restore.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { runPipeline } from './run-pipeline.js';

afterAll(() => stopMockHub());

// Bytes a text round trip would change: CRLF, a lone CR, invalid UTF-8.
const ORIGINAL = Buffer.from([0x61, 0x6c, 0x70, 0x68, 0x61, 0x0d, 0x0a, 0xff, 0xfe, 0x0d, 0x62, 0x65, 0x74, 0x61]);

function editAndCreate(snapshotMemory: SnapshotMemory) {
  return runPipeline(
    [
      {
        tool_use: [
          { name: 'edit', id: 'toolu_e', input: { file_path: 'sub/a.txt', old_string: 'alpha', new_string: 'omega' } },
          { name: 'write', id: 'toolu_w', input: { file_path: 'sub/new.txt', content: 'fresh\n' } },
        ],
      },
      { text: 'done' },
    ],
    {
      snapshotMemory,
      prepare: (ws) => {
        mkdirSync(join(ws, 'sub'));
        writeFileSync(join(ws, 'sub', 'a.txt'), ORIGINAL, { mode: 0o640 });
      },
    },
  );
}

describe('snapshots held in memory', () => {
  it('takes the same snapshots without writing them to disk, and restores them from memory', async () => {
    const memory = new SnapshotMemory();
    const run = await editAndCreate(memory);
    const ws = run.workspace;
    expect(run.of('tool_success').map((e) => e.tool)).toEqual(['edit', 'write']);
    expect(run.of('snapshot')).toEqual([
      expect.objectContaining({ tool: 'edit', tool_use_id: 'toolu_e', snapshot_action: 'taken', snapshot_files: 1, snapshot_created: 0, snapshot_skipped: 0 }),
      expect.objectContaining({ tool: 'write', tool_use_id: 'toolu_w', snapshot_action: 'taken', snapshot_files: 0, snapshot_created: 1, snapshot_skipped: 0 }),
    ]);
    expect(existsSync(join(ws, '.faultline'))).toBe(false);
    expect(memory.bytes).toBe(ORIGINAL.length);

    const ids = Object.fromEntries(run.of('snapshot').map((e) => [e.tool_use_id, e.snapshot_id]));
    const sink = new MemorySink();
    const emitter = new RunEmitter(sink, 'run-test').session('s1', 'task-1');
    const restore = (id: string) => restoreSnapshot({ workspace: ws, snapshotDir: join(ws, SNAPSHOT_SUBDIR), id, emitter, memory });
    expect(await restore(ids.toolu_e!)).toEqual({ id: ids.toolu_e, restored: ['sub/a.txt'], removed: [], refused: [] });
    expect(readFileSync(join(ws, 'sub', 'a.txt')).equals(ORIGINAL)).toBe(true);
    expect(statSync(join(ws, 'sub', 'a.txt')).mode & 0o777).toBe(0o640);
    expect(await restore(ids.toolu_w!)).toEqual({ id: ids.toolu_w, restored: [], removed: ['sub/new.txt'], refused: [] });
    expect(existsSync(join(ws, 'sub', 'new.txt'))).toBe(false);
    expect(sink.events().filter((e) => e.event === 'snapshot').map((e) => (e as { snapshot_action: string }).snapshot_action)).toEqual(['restored', 'restored']);
  });

  it('writes a snapshot that would pass the session bound to disk, as without memory', async () => {
    const memory = new SnapshotMemory(ORIGINAL.length - 1);
    const run = await editAndCreate(memory);
    const ws = run.workspace;
    const ids = Object.fromEntries(run.of('snapshot').map((e) => [e.tool_use_id, e.snapshot_id]));
    const onDisk = readdirSync(join(ws, SNAPSHOT_SUBDIR));
    // The edit's copy did not fit; the write's (nothing to copy, one created path) did.
    expect(onDisk).toEqual([ids.toolu_e]);
    expect(readFileSync(join(ws, SNAPSHOT_SUBDIR, ids.toolu_e!, 'files', 'sub', 'a.txt')).equals(ORIGINAL)).toBe(true);
    expect(memory.get(ids.toolu_w!)?.manifest.created).toEqual(['sub/new.txt']);
    const restored = await restoreSnapshot({ workspace: ws, snapshotDir: join(ws, SNAPSHOT_SUBDIR), id: ids.toolu_e!, memory });
    expect(restored.restored).toEqual(['sub/a.txt']);
    expect(readFileSync(join(ws, 'sub', 'a.txt')).equals(ORIGINAL)).toBe(true);
  });

  it('writes to disk once the sessions of the thread together hold their bound, and a session that ended gives its bytes back', async () => {
    // Two sessions share a pool that fits one edit's copy: many sessions at once (-j 1000) cannot each hold 16 MB.
    const pool = new HeldBytesPool(ORIGINAL.length);
    const first = new SnapshotMemory(SnapshotMemory.MAX_BYTES, pool);
    const second = new SnapshotMemory(SnapshotMemory.MAX_BYTES, pool);
    await editAndCreate(first);
    expect(first.bytes).toBe(ORIGINAL.length);
    const run = await editAndCreate(second);
    const edit = run.of('snapshot').find((e) => e.tool_use_id === 'toolu_e')!.snapshot_id!;
    expect(second.bytes).toBe(0);
    expect(readdirSync(join(run.workspace, SNAPSHOT_SUBDIR))).toEqual([edit]);
    first.release();
    expect(pool.used).toBe(0);
    const third = new SnapshotMemory(SnapshotMemory.MAX_BYTES, pool);
    const after = await editAndCreate(third);
    expect(third.bytes).toBe(ORIGINAL.length);
    expect(existsSync(join(after.workspace, '.faultline'))).toBe(false);
  });
});
