/**
 * The file tools' one-walk path (checked-file.ts locateFile): with the
 * session's real root held, a path is opened below it at once, and only a
 * link on the way (or a failure) takes the full resolution. The answers must
 * be the ones the full resolution gives, links included.
 */
import { mkdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOpenedSync } from '../safe-fs/beneath.js';
import { locateFile } from './checked-file.js';
import { editTool } from './edit.js';
import { readTool } from './read.js';
import { makeOutsideDir, makeWorkspace, removeWorkspaces } from './test-helpers.js';
import { resolveWorkspacePath } from './workspace-path.js';

const extra: string[] = [];
afterEach(async () => {
  await Promise.all(extra.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  await removeWorkspaces();
});

const signal = new AbortController().signal;

describe('locateFile', () => {
  it('opens a plain path in one walk and answers what the full resolution answers', async () => {
    const ws = await makeWorkspace({ 'src/a.ts': 'x' });
    const found = await locateFile(ws, 'src/a.ts', ws);
    expect(found.ok && found.opened?.fd).toEqual(expect.any(Number));
    if (found.ok && found.opened) closeOpenedSync(found.opened);
    const { opened: _, ...rest } = found as Extract<typeof found, { ok: true }>;
    expect(rest).toEqual(await resolveWorkspacePath(ws, 'src/a.ts'));
  });

  it('takes the full resolution for a link inside the workspace, and follows it as before', async () => {
    const ws = await makeWorkspace({ 'real/a.txt': 'inside' });
    await symlink(join(ws, 'real'), join(ws, 'alias'));
    const found = await locateFile(ws, 'alias/a.txt', ws);
    expect(found).toEqual({ ok: true, path: join(ws, 'real/a.txt'), relative: 'real/a.txt', root: ws });
    expect((await readTool.execute({ file_path: 'alias/a.txt' }, { workspace: ws, signal, realRoot: ws })).content).toContain('inside');
  });

  it('refuses a link out of the workspace, at the leaf or at a directory', async () => {
    const ws = await makeWorkspace();
    const outside = await makeOutsideDir({ 'secret.txt': 'SECRET' });
    await symlink(join(outside, 'secret.txt'), join(ws, 'leaf.txt'));
    await symlink(outside, join(ws, 'dir'));
    for (const p of ['leaf.txt', 'dir/secret.txt']) {
      expect(await locateFile(ws, p, ws)).toMatchObject({ ok: false, code: 'outside_workspace' });
      const out = await readTool.execute({ file_path: p }, { workspace: ws, signal, realRoot: ws });
      expect(out.content).not.toContain('SECRET');
      const edited = await editTool.execute({ file_path: p, old_string: 'SECRET', new_string: 'pwned' }, { workspace: ws, signal, realRoot: ws });
      expect(edited.isError).toBe(true);
    }
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
  });

  it('answers a missing file and a file used as a directory as the full resolution does', async () => {
    const ws = await makeWorkspace({ 'f.txt': 'x' });
    for (const p of ['none.txt', 'nodir/none.txt', 'f.txt/x']) {
      const fast = await readTool.execute({ file_path: p }, { workspace: ws, signal, realRoot: ws });
      const full = await readTool.execute({ file_path: p }, { workspace: ws, signal });
      expect(fast).toEqual(full);
      expect(fast.isError).toBe(true);
    }
  });

  it('a workspace swapped for a link after its root was held is not followed', async () => {
    const ws = await makeWorkspace({ 'notes.txt': 'mine' });
    const outside = await makeOutsideDir({ 'notes.txt': 'SECRET' });
    const moved = `${ws}-moved`;
    extra.push(moved);
    await rename(ws, moved);
    await symlink(outside, ws);
    const read = await readTool.execute({ file_path: 'notes.txt' }, { workspace: ws, signal, realRoot: ws });
    expect(read.content).not.toContain('SECRET');
    expect(read.isError).toBe(true);
    const edit = await editTool.execute({ file_path: 'notes.txt', old_string: 'SECRET', new_string: 'pwned' }, { workspace: ws, signal, realRoot: ws });
    expect(edit.isError).toBe(true);
    expect(await readFile(join(outside, 'notes.txt'), 'utf8')).toBe('SECRET');
    await rm(ws);
    await mkdir(ws); // removeWorkspaces removes it again
  });
});
