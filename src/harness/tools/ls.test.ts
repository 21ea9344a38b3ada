import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lsTool } from './ls.js';
import { context, makeOutsideDir, makeWorkspace, removeWorkspaces } from './test-helpers.js';

afterEach(removeWorkspaces);

describe('ls', () => {
  it('lists entries sorted by name with directories marked by a trailing slash', async () => {
    const ws = await makeWorkspace({ 'b.txt': '', 'a.txt': '', 'src/x.ts': '', '.env': '' });
    const out = await lsTool.execute({}, context(ws));
    expect(out.content).toBe('.env\na.txt\nb.txt\nsrc/');
  });

  it('lists a subdirectory given by path', async () => {
    const ws = await makeWorkspace({ 'src/x.ts': '', 'src/lib/y.ts': '' });
    const out = await lsTool.execute({ path: 'src' }, context(ws));
    expect(out.content).toBe('lib/\nx.ts');
  });

  it('marks a symlink to a directory as a directory', async () => {
    const ws = await makeWorkspace({ 'real/a.txt': '' });
    await symlink(join(ws, 'real'), join(ws, 'alias'));
    const out = await lsTool.execute({}, context(ws));
    expect(out.content).toBe('alias/\nreal/');
  });

  it('says explicitly that an empty directory is empty', async () => {
    const ws = await makeWorkspace();
    await mkdir(join(ws, 'empty'));
    const out = await lsTool.execute({ path: 'empty' }, context(ws));
    expect(out).toEqual({ content: '(the directory "empty" is empty)', empty: true });
  });

  it('reports a file path as ENOTDIR and points to read', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'x' });
    const out = await lsTool.execute({ path: 'a.txt' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'ENOTDIR' });
    expect(out.content).toContain('read');
  });

  it('refuses to list a symlinked directory outside the workspace', async () => {
    const ws = await makeWorkspace();
    const outside = await makeOutsideDir({ 'secret.txt': 's' });
    await symlink(outside, join(ws, 'out'));
    const out = await lsTool.execute({ path: 'out' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'outside_workspace' });
  });
});
