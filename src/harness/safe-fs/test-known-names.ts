/**
 * The known-names removal cases (imported only by *.test.ts): a workspace held open and removed with the names it
 * made, after the session changed what is at them. remove-tree.test.ts runs them on the temp directory's file
 * system, in-memory-fs.test.ts on a tmpfs, where removeTree takes its synchronous calls.
 */
import { closeSync, constants as C, existsSync, mkdirSync, openSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { removeTree } from './remove-tree.js';

/** Runs every case in workspaces made in `base` (an empty directory): links at known names are unlinked, not followed. */
export async function removesKnownNamesSafely(base: string): Promise<void> {
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'keep.txt'), 'keep');
  const cases: Record<string, (ws: string) => void> = {
    'only the known files': () => undefined,
    'a known name now a link to a file outside': (ws) => {
      rmSync(join(ws, 'notes.txt'));
      symlinkSync(join(outside, 'keep.txt'), join(ws, 'notes.txt'));
    },
    'a known name now a directory with files': (ws) => {
      rmSync(join(ws, 'notes.txt'));
      mkdirSync(join(ws, 'notes.txt'));
      writeFileSync(join(ws, 'notes.txt', 'inner.txt'), 'x');
    },
    'files the known names do not cover, and a link to a directory outside': (ws) => {
      writeFileSync(join(ws, 'new.txt'), 'x');
      symlinkSync(outside, join(ws, 'to-outside'));
    },
  };
  for (const [i, [name, change]] of Object.entries(cases).entries()) {
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
    expect(existsSync(ws), name).toBe(false);
  }
  expect(readdirSync(base)).toEqual(['outside']);
  expect(readdirSync(outside)).toEqual(['keep.txt']);
}
