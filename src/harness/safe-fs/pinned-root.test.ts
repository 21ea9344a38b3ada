/**
 * A pinned workspace root: walks start from the held descriptor (never the
 * root's name again), a walk's close gives it back instead of closing it,
 * and unpinning while a walk still holds it closes it only after that walk.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOpenedSync, openBeneathSync, openDirBeneathSync } from './beneath.js';
import { borrowRoot, isPinned, pinRoot, unpinRoot } from './pinned-root.js';
import { readToEndSync } from './read-to-end.js';
import { isOpen } from './test-fd.js';

let base: string | null = null;
afterEach(() => {
  if (base) {
    unpinRoot(join(base, 'ws'));
    rmSync(base, { recursive: true, force: true });
  }
  base = null;
});

function lab(): { ws: string; outside: string } {
  base = mkdtempSync(join(tmpdir(), 'pinned-root-'));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(join(ws, 'f.txt'), 'inside');
  writeFileSync(join(outside, 'f.txt'), 'outside');
  return { ws, outside };
}

function readBeneath(root: string, rel: string): string {
  const opened = openBeneathSync(root, rel);
  try {
    return opened.fd === null ? '(missing)' : readToEndSync(opened.fd, 64).toString('utf8');
  } finally {
    closeOpenedSync(opened);
  }
}

describe('pinned workspace root', () => {
  it('walks from the held directory: a root swapped for a link afterwards is not followed, pinned or not', () => {
    const { ws, outside } = lab();
    pinRoot(ws);
    renameSync(ws, `${ws}.moved`);
    symlinkSync(outside, ws);
    // Pinned: the walk stays in the directory the harness made (now at ws.moved), never the link's target.
    expect(readBeneath(ws, 'f.txt')).toBe('inside');
    unpinRoot(ws);
    // Not pinned: the root is opened by name with O_NOFOLLOW and refused, as before.
    expect(() => readBeneath(ws, 'f.txt')).toThrow();
    expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('outside');
  });

  it('a walk closing its directory gives the held descriptor back instead of closing it', () => {
    const { ws } = lab();
    pinRoot(ws);
    const probe = borrowRoot(ws);
    expect(probe).toBeDefined();
    const fd = (probe as { fd: number }).fd;
    probe?.release();
    expect(readBeneath(ws, 'f.txt')).toBe('inside');
    const dir = openDirBeneathSync(ws, '');
    expect(dir.fd).toBe(fd);
    dir.close();
    dir.close(); // twice: still given back once only
    expect(isOpen(fd)).toBe(true);
    unpinRoot(ws);
    expect(isPinned(ws)).toBe(false);
    expect(isOpen(fd)).toBe(false);
  });

  it('unpinning while a walk holds the root closes it only when that walk is done (a late tool body never meets a reused number)', () => {
    const { ws } = lab();
    pinRoot(ws);
    const opened = openBeneathSync(ws, 'f.txt');
    const rootFd = opened.dir.handle.fd;
    unpinRoot(ws);
    expect(isOpen(rootFd)).toBe(true);
    expect(readToEndSync(opened.fd as number, 64).toString('utf8')).toBe('inside');
    closeOpenedSync(opened);
    expect(isOpen(rootFd)).toBe(false);
  });

  it('holds at most a quarter of the descriptor budget at once (ulimit -n 64: a budget of 16, 4 roots), so many sessions never run out because of the pins', () => {
    const { ws } = lab();
    const dirs = [1, 2, 3, 4, 5, 6].map((i) => join(ws, `d${i}`));
    for (const d of dirs) mkdirSync(d);
    const mod = pathToFileURL(join(import.meta.dirname, 'pinned-root.ts')).href;
    const script = `const p = await import(${JSON.stringify(mod)}); const dirs = ${JSON.stringify(dirs)}; for (const d of dirs) p.pinRoot(d); console.log(p.softDescriptorLimit(), dirs.filter((d) => p.isPinned(d)).length);`;
    const child = spawnSync('bash', ['-c', 'ulimit -n 64 && exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('64 4');
  });
});
