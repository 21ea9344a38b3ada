/**
 * The walk's directory descriptors are opened once and reused within one
 * operation (a snapshot opens its folder once and walks below it): a
 * directory swapped for a symlink between two opens made from one held
 * descriptor must still be refused, never followed, and nothing may be
 * made or read outside.
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOpened, openBeneath, openDirAt, openDirBeneath, PathChangedError } from './beneath.js';

let base: string | null = null;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = null;
});

function lab(): { ws: string; outside: string } {
  base = mkdtempSync(join(tmpdir(), 'beneath-'));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(ws, 'snap', 'files'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'outside');
  return { ws, outside };
}

describe('safe-fs walk from a held directory', () => {
  it('refuses a directory swapped for a symlink after the first open of the same operation', async () => {
    const { ws, outside } = lab();
    const top = await openDirBeneath(ws, 'snap');
    try {
      const first = await openDirAt(top, 'files', { create: true });
      await first.handle.close();
      // Between two opens of one operation: files/ becomes a link to outside.
      renameSync(join(ws, 'snap', 'files'), join(ws, 'snap', 'files.old'));
      symlinkSync(outside, join(ws, 'snap', 'files'));
      await expect(openDirAt(top, 'files', { create: true })).rejects.toBeInstanceOf(PathChangedError);
      await expect(openDirAt(top, 'files/sub', { create: true })).rejects.toBeInstanceOf(PathChangedError);
    } finally {
      await top.handle.close();
    }
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses a symlinked parent of a file, and a symlink as the file, at the moment of use', async () => {
    const { ws, outside } = lab();
    symlinkSync(outside, join(ws, 'dlink'));
    await expect(openBeneath(ws, 'dlink/secret.txt')).rejects.toBeInstanceOf(PathChangedError);
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'flink'));
    await expect(openBeneath(ws, 'flink')).rejects.toThrow(/ELOOP|symbolic link/);
    // A creating walk through the link makes nothing outside either.
    await expect(openDirBeneath(ws, 'dlink/new', { create: true })).rejects.toBeInstanceOf(PathChangedError);
    expect(existsSync(join(outside, 'new'))).toBe(false);
  });

  it('opens a plain file below real directories and reports a missing one as null', async () => {
    const { ws } = lab();
    writeFileSync(join(ws, 'snap', 'files', 'a.txt'), 'inside');
    const opened = await openBeneath(ws, 'snap/files/a.txt');
    try {
      expect((await opened.handle!.readFile()).toString()).toBe('inside');
    } finally {
      await closeOpened(opened);
    }
    const missing = await openBeneath(ws, 'snap/files/none.txt');
    expect(missing.handle).toBeNull();
    await closeOpened(missing);
  });
});
