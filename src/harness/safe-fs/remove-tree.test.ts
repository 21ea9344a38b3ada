import { closeSync, constants as C, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree } from './remove-tree.js';
import { removesKnownNamesSafely } from './test-known-names.js';

let base: string | null = null;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = null;
});

describe('removeTree (async)', () => {
  it('removes files, nested directories, a FIFO and links, and never what a link points at', async () => {
    base = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    const outside = join(base, 'outside');
    mkdirSync(join(outside, 'dir'), { recursive: true });
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    writeFileSync(join(outside, 'dir', 'deep.txt'), 'keep');
    const ws = join(base, 'ws');
    mkdirSync(join(ws, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(join(ws, 'notes.txt'), 'x');
    writeFileSync(join(ws, 'a', 'b', 'c', 'f.txt'), 'x');
    symlinkSync(outside, join(ws, 'to-outside'));
    symlinkSync(join(outside, 'dir'), join(ws, 'a', 'to-dir'));
    symlinkSync(join(outside, 'keep.txt'), join(ws, 'a', 'b', 'to-file'));
    symlinkSync(join(outside, 'none'), join(ws, 'dangling'));
    execFileSync('mkfifo', [join(ws, 'a', 'pipe')]);
    await removeTree(ws);
    expect(existsSync(ws)).toBe(false);
    expect(readdirSync(outside).sort()).toEqual(['dir', 'keep.txt']);
    expect(readdirSync(join(outside, 'dir'))).toEqual(['deep.txt']);
  });

  it('unlinks a link given as the root instead of following it', async () => {
    base = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    mkdirSync(join(base, 'target'));
    writeFileSync(join(base, 'target', 'keep.txt'), 'keep');
    symlinkSync(join(base, 'target'), join(base, 'link'));
    await removeTree(join(base, 'link'));
    expect(existsSync(join(base, 'link'))).toBe(false);
    expect(readdirSync(join(base, 'target'))).toEqual(['keep.txt']);
  });

  it('through a held descriptor: empties the directory held, and a name since swapped for a link is unlinked, not followed', async () => {
    base = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    const ws = join(base, 'ws');
    mkdirSync(join(ws, 'sub'), { recursive: true });
    writeFileSync(join(ws, 'notes.txt'), 'x');
    writeFileSync(join(ws, 'sub', 'f.txt'), 'x');
    mkdirSync(join(base, 'target'));
    writeFileSync(join(base, 'target', 'keep.txt'), 'keep');
    const held = openSync(ws, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    try {
      renameSync(ws, join(base, 'moved'));
      symlinkSync(join(base, 'target'), ws);
      await removeTree(ws, held);
    } finally {
      closeSync(held);
    }
    expect(existsSync(ws)).toBe(false);
    expect(readdirSync(join(base, 'moved'))).toEqual([]);
    expect(readdirSync(join(base, 'target'))).toEqual(['keep.txt']);
  });

  it('through a held descriptor: the usual case removes the whole tree', async () => {
    base = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    const ws = join(base, 'ws');
    mkdirSync(join(ws, 'a', 'b'), { recursive: true });
    writeFileSync(join(ws, 'a', 'b', 'f.txt'), 'x');
    symlinkSync(base, join(ws, 'up'));
    const held = openSync(ws, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    try {
      await removeTree(ws, held);
    } finally {
      closeSync(held);
    }
    expect(readdirSync(base)).toEqual([]);
  });

  it('through a held descriptor with the names it made: links left at those names are unlinked, not followed; anything else takes the walk', async () => {
    base = mkdtempSync(join(tmpdir(), 'remove-tree-'));
    await removesKnownNamesSafely(base);
  });
});
