import { readFile, symlink } from 'node:fs/promises';
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
