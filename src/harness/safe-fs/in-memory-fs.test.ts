/**
 * Which directories are on a file system held in memory, as /proc/mounts
 * says; and a workspace there is removed with its known names exactly as on a
 * disk (remove-tree.ts takes the synchronous calls there): links left at
 * those names are unlinked, not followed; anything else takes the walk.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isInMemoryFs } from './in-memory-fs.js';
import { removesKnownNamesSafely } from './test-known-names.js';

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
    await removesKnownNamesSafely(base);
  });
});
