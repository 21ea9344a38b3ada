/**
 * A workspace in the place faultline chose (the tmpfs) that the place cannot
 * take is made in the temp directory instead, as is every later one; a
 * failure that is not the place's keeps the place.
 */
import * as fs from 'node:fs';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../tests/helpers/temp-dirs.js';
import { placeWorkspace, resetAbandoned } from './workspace-place.js';

/** Fixture writes under `full` fail as on a full tmpfs. */
let full: string | null = null;
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const writeFileSync: typeof real.writeFileSync = (path, ...rest) => {
    if (full !== null && String(path).startsWith(full)) throw Object.assign(new Error(`ENOSPC: no space left on device, open '${String(path)}'`), { code: 'ENOSPC' });
    return real.writeFileSync(path, ...rest);
  };
  return { ...real, writeFileSync, default: { ...real, writeFileSync } };
});

afterEach(() => {
  full = null;
  resetAbandoned();
});

const files = { 'notes.txt': 'hello\n' };

describe('placeWorkspace', () => {
  it('makes the workspace in the chosen place at once', async () => {
    const place = tempDir();
    const ws = await placeWorkspace(files, place);
    expect(ws.root.startsWith(place + '/')).toBe(true);
    expect(fs.readFileSync(join(ws.root, 'notes.txt'), 'utf8')).toBe('hello\n');
    await ws.remove();
  });

  it('on a full place (ENOSPC) makes it in the temp directory, leaves nothing there, and sends every later one to the temp directory', async () => {
    const place = tempDir();
    full = place;
    const first = await placeWorkspace(files, place);
    expect(first.root.startsWith(fs.realpathSync(tmpdir()) + '/')).toBe(true);
    expect(first.created).toBe(false); // lazy again, as any workspace in the temp directory
    expect(fs.readdirSync(place)).toEqual([]);
    full = null;
    const later = await placeWorkspace(files, place);
    expect(later.root.startsWith(fs.realpathSync(tmpdir()) + '/')).toBe(true);
    await later.ensure();
    expect(fs.readFileSync(join(later.root, 'notes.txt'), 'utf8')).toBe('hello\n');
    await later.remove();
  });

  it('does the same when the place went away (ENOENT)', async () => {
    const place = join(tempDir(), 'shm');
    const ws = await placeWorkspace(files, place);
    expect(ws.root.startsWith(fs.realpathSync(tmpdir()) + '/')).toBe(true);
    mkdirSync(place);
    expect((await placeWorkspace(files, place)).root.startsWith(place)).toBe(false);
    rmdirSync(place);
  });

  it('keeps the place when the failure is the fixture\'s own (a path that is a file and a directory)', async () => {
    const place = tempDir();
    const ws = await placeWorkspace({ a: 'x', 'a/b': 'y' }, place);
    expect(ws.root.startsWith(place + '/')).toBe(true);
    expect(existsSync(ws.root)).toBe(false);
    await expect(ws.ensure()).rejects.toThrow(/could not make the task workspace/);
    await ws.remove();
    const next = await placeWorkspace(files, place);
    expect(next.root.startsWith(place + '/')).toBe(true);
    await next.remove();
  });
});
