import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeOutsideDir, makeWorkspace, removeWorkspaces } from './test-helpers.js';
import { isInside, resolveWorkspacePath } from './workspace-path.js';

afterEach(removeWorkspaces);

describe('resolveWorkspacePath', () => {
  it('resolves a relative path against the workspace root', async () => {
    const ws = await makeWorkspace({ 'src/a.ts': 'x' });
    expect(await resolveWorkspacePath(ws, 'src/a.ts')).toEqual({ ok: true, path: join(ws, 'src/a.ts'), relative: 'src/a.ts', root: ws });
  });

  it('accepts an absolute path inside the workspace and the root itself', async () => {
    const ws = await makeWorkspace();
    expect(await resolveWorkspacePath(ws, join(ws, 'new/file.txt'))).toMatchObject({ ok: true, relative: 'new/file.txt' });
    expect(await resolveWorkspacePath(ws, '.')).toMatchObject({ ok: true, path: ws, relative: '.' });
  });

  it('refuses a ../ escape with outside_workspace', async () => {
    const ws = await makeWorkspace();
    const result = await resolveWorkspacePath(ws, '../etc/passwd');
    expect(result).toMatchObject({ ok: false, code: 'outside_workspace' });
    if (!result.ok) expect(result.message).toContain('relative to its root');
  });

  it('refuses an absolute path outside the workspace', async () => {
    const ws = await makeWorkspace();
    expect(await resolveWorkspacePath(ws, '/etc/passwd')).toMatchObject({ ok: false, code: 'outside_workspace' });
  });

  it('refuses a symlink that points outside the workspace', async () => {
    const ws = await makeWorkspace();
    const outside = await makeOutsideDir({ 'secret.txt': 's' });
    await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
    expect(await resolveWorkspacePath(ws, 'link.txt')).toMatchObject({ ok: false, code: 'outside_workspace' });
  });

  it('refuses a not-yet-existing file below a symlinked directory that points outside', async () => {
    const ws = await makeWorkspace();
    const outside = await makeOutsideDir();
    await symlink(outside, join(ws, 'out'));
    expect(await resolveWorkspacePath(ws, 'out/new/deep.txt')).toMatchObject({ ok: false, code: 'outside_workspace' });
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    const ws = await makeWorkspace();
    const outside = await makeOutsideDir();
    await symlink(join(outside, 'not-yet.txt'), join(ws, 'dangling.txt'));
    expect(await resolveWorkspacePath(ws, 'dangling.txt')).toMatchObject({ ok: false, code: 'outside_workspace' });
  });

  it('follows a symlink that stays inside and returns the real path', async () => {
    const ws = await makeWorkspace({ 'real/a.txt': 'x' });
    await symlink(join(ws, 'real'), join(ws, 'alias'));
    expect(await resolveWorkspacePath(ws, 'alias/a.txt')).toEqual({ ok: true, path: join(ws, 'real/a.txt'), relative: 'real/a.txt', root: ws });
  });

  it('refuses a path with a NUL character as data, not by throwing', async () => {
    const ws = await makeWorkspace();
    expect(await resolveWorkspacePath(ws, 'a\0b')).toMatchObject({ ok: false, code: 'invalid_path' });
  });

  it('reports a symlink loop as ELOOP instead of hanging', async () => {
    const ws = await makeWorkspace();
    await symlink(join(ws, 'b'), join(ws, 'a'));
    await symlink(join(ws, 'a'), join(ws, 'b'));
    expect(await resolveWorkspacePath(ws, 'a/x.txt')).toMatchObject({ ok: false, code: 'ELOOP' });
  });

  it('accepts a workspace given through a symlinked spelling', async () => {
    const real = await makeWorkspace({ 'f.txt': 'x' });
    const holder = await makeOutsideDir();
    await mkdir(join(holder, 'sub'));
    await symlink(real, join(holder, 'sub', 'ws'));
    const viaLink = join(holder, 'sub', 'ws');
    expect(await resolveWorkspacePath(viaLink, join(viaLink, 'f.txt'))).toMatchObject({ ok: true, path: join(real, 'f.txt') });
  });
});

describe('isInside', () => {
  it('does not treat a sibling with the same prefix as inside', () => {
    expect(isInside('/w/ws', '/w/ws-other/file')).toBe(false);
    expect(isInside('/w/ws', '/w/ws/..file')).toBe(true);
  });
});
