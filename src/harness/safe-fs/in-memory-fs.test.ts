/**
 * Which directories are on a file system held in memory, as /proc/mounts
 * says; and a workspace there is removed with its known names exactly as on a
 * disk (remove-tree.ts takes the synchronous calls there): links left at
 * those names are unlinked, not followed; anything else takes the walk.
 */
import { closeSync, constants as C, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isInMemoryFs } from './in-memory-fs.js';
import { removeTree } from './remove-tree.js';

/** The type of the mount `dir` is on, from /proc/mounts (the longest mount point that contains it). */
function mountType(dir: string): string {
  let best = { point: '', type: '' };
  for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
    const [, point, type] = line.split(' ');
    if (point === undefined || type === undefined) continue;
    if ((dir === point || dir.startsWith(point.endsWith('/') ? point : `${point}/`)) && point.length > best.point.length) best = { point, type };
  }
  return best.type;
}

const SHM = '/dev/shm';
const shmInMemory = existsSync(SHM) && ['tmpfs', 'ramfs'].includes(mountType(SHM));

let base: string | null = null;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = null;
});

describe('isInMemoryFs', () => {
  it('answers as /proc/mounts says, and a missing directory is a disk', () => {
    for (const dir of [SHM, tmpdir(), '/proc', '/']) if (existsSync(dir)) expect(isInMemoryFs(dir), dir).toBe(['tmpfs', 'ramfs'].includes(mountType(dir)));
    expect(isInMemoryFs('/no/such/dir')).toBe(false);
  });

  it.runIf(shmInMemory)('a workspace in memory held open with the names it made: links left at those names are unlinked, not followed; anything else takes the walk', async () => {
    base = mkdtempSync(join(SHM, 'remove-tree-'));
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    const cases: ((ws: string) => void)[] = [
      () => undefined,
      (ws) => {
        rmSync(join(ws, 'notes.txt'));
        symlinkSync(join(outside, 'keep.txt'), join(ws, 'notes.txt'));
      },
      (ws) => {
        rmSync(join(ws, 'notes.txt'));
        mkdirSync(join(ws, 'notes.txt'));
        writeFileSync(join(ws, 'notes.txt', 'inner.txt'), 'x');
      },
      (ws) => {
        writeFileSync(join(ws, 'new.txt'), 'x');
        symlinkSync(outside, join(ws, 'to-outside'));
      },
    ];
    for (const [i, change] of cases.entries()) {
      const ws = join(base, `ws${i}`);
      mkdirSync(ws);
      writeFileSync(join(ws, 'notes.txt'), 'x');
      writeFileSync(join(ws, 'b.txt'), 'x');
      change(ws);
      const held = openSync(ws, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
      try {
        await removeTree(ws, held, ['notes.txt', 'b.txt', 'missing.txt']);
      } finally {
        closeSync(held);
      }
      expect(existsSync(ws)).toBe(false);
    }
    expect(readdirSync(base)).toEqual(['outside']);
    expect(readdirSync(outside)).toEqual(['keep.txt']);
  });
});
