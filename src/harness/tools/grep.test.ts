import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GREP_MAX_MATCHES, grepTool } from './grep.js';
import { context, makeOutsideDir, makeWorkspace, removeWorkspaces } from './test-helpers.js';

afterEach(removeWorkspaces);

describe('grep', () => {
  it('prints file:line:text for each match, files in sorted order', async () => {
    const ws = await makeWorkspace({ 'src/b.ts': 'x\nload()\n', 'src/a.ts': 'function load() {}\n' });
    const out = await grepTool.execute({ pattern: 'load\\(' }, context(ws));
    expect(out.content).toBe('src/a.ts:1:function load() {}\nsrc/b.ts:2:load()');
  });

  it('says "(no matches)" when nothing matches', async () => {
    const ws = await makeWorkspace({ 'a.ts': 'hello\n' });
    const out = await grepTool.execute({ pattern: 'absent' }, context(ws));
    expect(out).toEqual({ content: '(no matches)', empty: true });
  });

  it('filters files with glob, where a pattern without "/" matches at any depth', async () => {
    const ws = await makeWorkspace({ 'deep/a.ts': 'needle', 'deep/a.md': 'needle' });
    const out = await grepTool.execute({ pattern: 'needle', glob: '*.ts' }, context(ws));
    expect(out.content).toBe('deep/a.ts:1:needle');
  });

  it('searches a single file given by path', async () => {
    const ws = await makeWorkspace({ 'a.ts': 'one\ntwo\n', 'b.ts': 'two' });
    const out = await grepTool.execute({ pattern: 'two', path: 'a.ts' }, context(ws));
    expect(out.content).toBe('a.ts:2:two');
  });

  it('matches case-insensitively only when ignore_case is set', async () => {
    const ws = await makeWorkspace({ 'a.ts': 'Needle' });
    expect((await grepTool.execute({ pattern: 'needle' }, context(ws))).content).toBe('(no matches)');
    expect((await grepTool.execute({ pattern: 'needle', ignore_case: true }, context(ws))).content).toBe('a.ts:1:Needle');
  });

  it('skips binary files, node_modules and .git', async () => {
    const ws = await makeWorkspace({ 'node_modules/m/i.js': 'needle', '.git/config': 'needle', 'ok.txt': 'needle' });
    await writeFile(join(ws, 'blob.bin'), Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
    const out = await grepTool.execute({ pattern: 'needle' }, context(ws));
    expect(out.content).toBe('ok.txt:1:needle');
  });

  it('caps the shown matches and gives the total', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'hit\n'.repeat(GREP_MAX_MATCHES + 7) });
    const out = await grepTool.execute({ pattern: 'hit' }, context(ws));
    expect(out.content.split('\n').filter((l) => l.startsWith('a.txt:'))).toHaveLength(GREP_MAX_MATCHES);
    expect(out.content).toContain(`(showing the first ${GREP_MAX_MATCHES} of ${GREP_MAX_MATCHES + 7} matching lines`);
  });

  it('reports an invalid regex as a tool error with a fix hint', async () => {
    const ws = await makeWorkspace({ 'a.ts': 'x' });
    const out = await grepTool.execute({ pattern: 'load(' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'invalid_regex' });
    expect(out.content).toContain('backslash');
  });

  it('does not read a symlinked file whose target is outside the workspace', async () => {
    const ws = await makeWorkspace({ 'in.txt': 'needle' });
    const outside = await makeOutsideDir({ 'secret.txt': 'needle' });
    await symlink(join(outside, 'secret.txt'), join(ws, 'leak.txt'));
    const out = await grepTool.execute({ pattern: 'needle' }, context(ws));
    expect(out.content).toBe('in.txt:1:needle');
  });

  it('does not report a phantom empty line after the final newline', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'x\n' });
    const out = await grepTool.execute({ pattern: '^$' }, context(ws));
    expect(out.content).toBe('(no matches)');
  });
});
