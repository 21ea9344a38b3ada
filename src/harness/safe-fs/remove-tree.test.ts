import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree } from './remove-tree.js';

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
});
