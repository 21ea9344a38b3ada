import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GLOB_MAX_RESULTS, globTool } from './glob.js';
import { context, makeOutsideDir, makeWorkspace, removeWorkspaces } from './test-helpers.js';

afterEach(removeWorkspaces);

describe('glob', () => {
  it('returns matching files sorted, relative to the workspace root', async () => {
    const ws = await makeWorkspace({ 'src/b.ts': '', 'src/a.ts': '', 'src/c.js': '', 'z.ts': '' });
    const out = await globTool.execute({ pattern: '**/*.ts' }, context(ws));
    expect(out.content).toBe('src/a.ts\nsrc/b.ts\nz.ts');
  });

  it('searches below path but still prints paths from the workspace root', async () => {
    const ws = await makeWorkspace({ 'src/lib/a.ts': '', 'other/a.ts': '' });
    const out = await globTool.execute({ pattern: '**/*.ts', path: 'src' }, context(ws));
    expect(out.content).toBe('src/lib/a.ts');
  });

  it('says "(no files matched)" when nothing matches', async () => {
    const ws = await makeWorkspace({ 'a.txt': '' });
    const out = await globTool.execute({ pattern: '**/*.rs' }, context(ws));
    expect(out).toEqual({ content: '(no files matched)', empty: true });
  });

  it('reports a missing search directory as ENOENT and a file as ENOTDIR instead of "no files matched"', async () => {
    const ws = await makeWorkspace({ 'a.txt': '' });
    expect(await globTool.execute({ pattern: '*', path: 'nope' }, context(ws))).toMatchObject({ isError: true, errorCode: 'ENOENT' });
    expect(await globTool.execute({ pattern: '*', path: 'a.txt' }, context(ws))).toMatchObject({ isError: true, errorCode: 'ENOTDIR' });
  });

  it('skips node_modules and .git unless the pattern names node_modules', async () => {
    const ws = await makeWorkspace({ 'node_modules/m/i.js': '', '.git/hooks/h.js': '', 'i.js': '' });
    expect((await globTool.execute({ pattern: '**/*.js' }, context(ws))).content).toBe('i.js');
    expect((await globTool.execute({ pattern: 'node_modules/**/*.js' }, context(ws))).content).toBe('node_modules/m/i.js');
  });

  it('caps the result count and says how many matched', async () => {
    const files = Object.fromEntries(Array.from({ length: GLOB_MAX_RESULTS + 5 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, '']));
    const ws = await makeWorkspace(files);
    const out = await globTool.execute({ pattern: '*.txt' }, context(ws));
    expect(out.content.split('\n').filter((l) => l.endsWith('.txt'))).toHaveLength(GLOB_MAX_RESULTS);
    expect(out.content).toContain(`(showing the first ${GLOB_MAX_RESULTS} of ${GLOB_MAX_RESULTS + 5} matching files`);
  });

  it('refuses patterns that climb out with ..', async () => {
    const ws = await makeWorkspace();
    const out = await globTool.execute({ pattern: '../**/*' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'outside_workspace' });
  });

  it('does not walk into a symlinked directory that points outside', async () => {
    const ws = await makeWorkspace({ 'in.txt': '' });
    const outside = await makeOutsideDir({ 'secret.txt': '' });
    await symlink(outside, join(ws, 'out'));
    const out = await globTool.execute({ pattern: '**/*.txt' }, context(ws));
    expect(out.content).toBe('in.txt');
  });
});

describe('glob and the harness directory', () => {
  it('never lists the harness\'s own .faultline files (spills, snapshots)', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'x', '.faultline/spill/t1-x.txt': 'spilled' });
    const out = await globTool.execute({ pattern: '**/*.txt' }, context(ws));
    expect(out.content).toBe('a.txt');
  });
});
