import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTool } from './read.js';
import { context, makeWorkspace, removeWorkspaces } from './test-helpers.js';

afterEach(removeWorkspaces);

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read', () => {
  it('numbers lines like cat -n: right-aligned number, tab, text', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'alpha\nbeta\n' });
    const out = await readTool.execute({ file_path: 'a.txt' }, context(ws));
    expect(out).toEqual({ content: '     1\talpha\n     2\tbeta' });
  });

  it('returns the window given by offset and limit with a note on how to continue', async () => {
    const ws = await makeWorkspace({ 'a.txt': numbered(10) });
    const out = await readTool.execute({ file_path: 'a.txt', offset: 3, limit: 2 }, context(ws));
    expect(out.content.startsWith('     3\tline 3\n     4\tline 4\n\n(showing lines 3-4 of 10')).toBe(true);
  });

  it('tells a model paging through a short file to read it whole (the reverse hint), and not one paging a long file', async () => {
    const ws = await makeWorkspace({ 'a.txt': numbered(10), 'big.txt': numbered(2500) });
    const short = await readTool.execute({ file_path: 'a.txt', offset: 3, limit: 2 }, context(ws));
    expect(short.content).toContain('The file has only 10 lines, within the 2000 one read returns: read it whole (omit offset and limit)');
    expect(short.content).not.toContain('offset=5 to continue');
    const long = await readTool.execute({ file_path: 'big.txt', offset: 3, limit: 2 }, context(ws));
    expect(long.content.endsWith('(showing lines 3-4 of 2500; call read with offset=5 to continue)')).toBe(true);
    expect(long.content).not.toContain('read it whole');
    // A read of the whole short file, or a window reaching its end, has no note at all.
    expect((await readTool.execute({ file_path: 'a.txt' }, context(ws))).content).not.toContain('(showing');
  });

  it('stops at 2000 lines by default and says how many lines exist', async () => {
    const ws = await makeWorkspace({ 'big.txt': numbered(5312) });
    const out = await readTool.execute({ file_path: 'big.txt' }, context(ws));
    const lines = out.content.split('\n');
    expect(lines[1999]).toBe('  2000\tline 2000');
    expect(out.content).not.toContain('line 2001');
    expect(out.content.endsWith('(showing lines 1-2000 of 5312; call read with offset=2001 to continue)')).toBe(true);
  });

  it('adds no note when the window reaches the end of the file', async () => {
    const ws = await makeWorkspace({ 'a.txt': numbered(5) });
    const out = await readTool.execute({ file_path: 'a.txt', offset: 4 }, context(ws));
    expect(out.content).toBe('     4\tline 4\n     5\tline 5');
  });

  it('cuts lines longer than 2000 characters and says so', async () => {
    const ws = await makeWorkspace({ 'wide.txt': 'x'.repeat(2500) });
    const out = await readTool.execute({ file_path: 'wide.txt' }, context(ws));
    expect(out.content).toBe(`     1\t${'x'.repeat(2000)}… (line cut at 2000 of 2500 characters)`);
  });

  it('says explicitly that an empty file is empty', async () => {
    const ws = await makeWorkspace({ 'empty.txt': '' });
    const out = await readTool.execute({ file_path: 'empty.txt' }, context(ws));
    expect(out.isError).toBeUndefined();
    expect(out.content).toBe('(the file "empty.txt" is empty: 0 lines)');
  });

  it('reports a missing file as a tool error with ENOENT and a next step', async () => {
    const ws = await makeWorkspace();
    const out = await readTool.execute({ file_path: 'nope.txt' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'ENOENT' });
    expect(out.content).toContain('ls or glob');
  });

  it('reports a directory as EISDIR and points to ls', async () => {
    const ws = await makeWorkspace({ 'dir/a.txt': 'x' });
    const out = await readTool.execute({ file_path: 'dir' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'EISDIR' });
    expect(out.content).toContain('ls');
  });

  it('reports an offset past the end of the file with the line count', async () => {
    const ws = await makeWorkspace({ 'a.txt': numbered(3) });
    const out = await readTool.execute({ file_path: 'a.txt', offset: 9 }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'offset_out_of_range' });
    expect(out.content).toContain('has 3 lines');
  });

  it('refuses binary files', async () => {
    const ws = await makeWorkspace();
    await writeFile(join(ws, 'bin.dat'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    const out = await readTool.execute({ file_path: 'bin.dat' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'binary_file' });
  });

  it('refuses a path outside the workspace', async () => {
    const ws = await makeWorkspace();
    const out = await readTool.execute({ file_path: '../../etc/passwd' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'outside_workspace' });
  });

  it('returns without reading when the signal is already aborted', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'x' });
    const controller = new AbortController();
    controller.abort();
    const out = await readTool.execute({ file_path: 'a.txt' }, context(ws, controller.signal));
    expect(out).toMatchObject({ isError: true, errorCode: 'aborted' });
  });

  it('is read-only and concurrency-safe', () => {
    expect(readTool.readOnly).toBe(true);
    expect(readTool.isConcurrencySafe({ file_path: 'a' })).toBe(true);
  });
});
