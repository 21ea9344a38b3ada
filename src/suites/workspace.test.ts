import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LazyWorkspace } from './workspace.js';

const parent = mkdtempSync(join(tmpdir(), 'faultline-wsrm-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('a task workspace at its end', () => {
  it('is removed whole: flat (sync removal), with directories or many files (async walk), never through a link', async () => {
    const outside = join(parent, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'keep\n');
    const flat = new LazyWorkspace({ 'a.txt': 'a\n' }, parent);
    const deep = new LazyWorkspace({ 'a.txt': 'a\n', 'sub/deeper/b.txt': 'b\n' }, parent);
    const many = new LazyWorkspace(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.txt`, `${i}\n`])), parent);
    for (const ws of [flat, deep, many]) await ws.ensure();
    symlinkSync(outside, join(flat.root, 'link-to-outside'));
    symlinkSync(join(outside, 'keep.txt'), join(deep.root, 'sub', 'link-to-file'));
    await Promise.all([flat.remove(), deep.remove(), many.remove()]);
    for (const ws of [flat, deep, many]) expect(existsSync(ws.root)).toBe(false);
    expect(readdirSync(parent)).toEqual(['outside']);
    expect(readdirSync(outside)).toEqual(['keep.txt']);
  });

  it('never made, leaves nothing to remove', async () => {
    const lazy = new LazyWorkspace({ 'a.txt': 'a\n' }, parent);
    await lazy.remove();
    expect(existsSync(lazy.root)).toBe(false);
  });
});
