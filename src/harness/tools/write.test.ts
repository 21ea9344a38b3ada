import { chmod, link, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { context, makeOutsideDir, makeWorkspace, removeWorkspaces } from './test-helpers.js';
import { writeTool } from './write.js';

afterEach(removeWorkspaces);

describe('write', () => {
  it('creates a file and its missing parent directories and reports the bytes written', async () => {
    const ws = await makeWorkspace();
    const out = await writeTool.execute({ file_path: 'deep/er/new.txt', content: 'héllo' }, context(ws));
    expect(out).toEqual({ content: 'Created "deep/er/new.txt" (6 bytes written).' });
    expect(await readFile(join(ws, 'deep/er/new.txt'), 'utf8')).toBe('héllo');
  });

  it('overwrites an existing file and says so', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'old content' });
    const out = await writeTool.execute({ file_path: 'a.txt', content: 'new' }, context(ws));
    expect(out.content).toBe('Overwrote "a.txt" (3 bytes written).');
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('new');
  });

  it('refuses to write through a symlink that points outside the workspace', async () => {
    const ws = await makeWorkspace();
    const outside = await makeOutsideDir({ 'target.txt': 'original' });
    await symlink(join(outside, 'target.txt'), join(ws, 'link.txt'));
    const out = await writeTool.execute({ file_path: 'link.txt', content: 'pwned' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'outside_workspace' });
    expect(await readFile(join(outside, 'target.txt'), 'utf8')).toBe('original');
  });

  it('replaces a hard-linked file by a new one: the other name keeps its content, the mode is kept, no temp file stays', async () => {
    const ws = await makeWorkspace();
    const outside = await makeOutsideDir({ 'store.js': 'original' });
    await link(join(outside, 'store.js'), join(ws, 'index.js'));
    await chmod(join(ws, 'index.js'), 0o751);
    const out = await writeTool.execute({ file_path: 'index.js', content: 'changed' }, context(ws));
    expect(out.content).toBe('Overwrote "index.js" (7 bytes written).');
    expect(await readFile(join(ws, 'index.js'), 'utf8')).toBe('changed');
    expect(await readFile(join(outside, 'store.js'), 'utf8')).toBe('original');
    expect((await stat(join(ws, 'index.js'))).mode & 0o777).toBe(0o751);
    expect(await readdir(ws)).toEqual(['index.js']);
  });

  it('reports a directory target as EISDIR', async () => {
    const ws = await makeWorkspace({ 'dir/a.txt': 'x' });
    const out = await writeTool.execute({ file_path: 'dir', content: 'x' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'EISDIR' });
  });

  it('is not read-only and never concurrency-safe', () => {
    expect(writeTool.readOnly).toBe(false);
    expect(writeTool.isConcurrencySafe({ file_path: 'a', content: '' })).toBe(false);
  });
});
