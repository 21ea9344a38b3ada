import { chmod, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editTool, occurrences } from './edit.js';
import { context, makeWorkspace, removeWorkspaces } from './test-helpers.js';

afterEach(removeWorkspaces);

async function edit(files: Record<string, string>, input: Parameters<typeof editTool.execute>[0]) {
  const ws = await makeWorkspace(files);
  const out = await editTool.execute(input, context(ws));
  return { out, text: await readFile(join(ws, input.file_path), 'utf8').catch(() => null) };
}

describe('edit', () => {
  it('replaces a unique match and leaves the rest of the file alone', async () => {
    const { out, text } = await edit({ 'a.ts': 'const a = 1;\nconst b = 2;\n' }, { file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(out).toEqual({ content: 'Edited "a.ts": replaced 1 occurrence.' });
    expect(text).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('reports no_match, leaves the file unchanged and suggests re-reading it', async () => {
    const { out, text } = await edit({ 'a.ts': 'const a = 1;\n' }, { file_path: 'a.ts', old_string: 'const  a', new_string: 'let a' });
    expect(out).toMatchObject({ isError: true, errorCode: 'no_match' });
    expect(out.content).toContain('Read the file again');
    expect(text).toBe('const a = 1;\n');
  });

  it('reports not_unique with the match count and the two ways out', async () => {
    const { out, text } = await edit({ 'a.ts': 'x();\nx();\nx();\n' }, { file_path: 'a.ts', old_string: 'x();', new_string: 'y();' });
    expect(out).toMatchObject({ isError: true, errorCode: 'not_unique' });
    expect(out.content).toContain('occurs 3 times');
    expect(out.content).toContain('replace_all');
    expect(text).toBe('x();\nx();\nx();\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    const { out, text } = await edit({ 'a.ts': 'x();\nx();\n' }, { file_path: 'a.ts', old_string: 'x()', new_string: 'y()', replace_all: true });
    expect(out.content).toBe('Edited "a.ts": replaced 2 occurrences.');
    expect(text).toBe('y();\ny();\n');
  });

  it('refuses identical old_string and new_string', async () => {
    const { out } = await edit({ 'a.ts': 'x' }, { file_path: 'a.ts', old_string: 'x', new_string: 'x' });
    expect(out).toMatchObject({ isError: true, errorCode: 'no_change' });
  });

  it('inserts new_string literally, without $-pattern expansion', async () => {
    const { text } = await edit({ 'a.ts': 'price = X;' }, { file_path: 'a.ts', old_string: 'X', new_string: "'$&' + $1 + $$" });
    expect(text).toBe("price = '$&' + $1 + $$;");
  });

  it('reports a missing file as ENOENT and points to write for new files', async () => {
    const { out } = await edit({}, { file_path: 'nope.ts', old_string: 'a', new_string: 'b' });
    expect(out).toMatchObject({ isError: true, errorCode: 'ENOENT' });
    expect(out.content).toContain('write');
  });

  it('refuses a file outside the workspace', async () => {
    const { out } = await edit({}, { file_path: '../x.ts', old_string: 'a', new_string: 'b' });
    expect(out).toMatchObject({ isError: true, errorCode: 'outside_workspace' });
  });

  it('rejects an empty old_string at validation (the schema says minLength 1)', () => {
    expect(editTool.inputSchema.safeParse({ file_path: 'a', old_string: '', new_string: 'b' }).success).toBe(false);
  });
});

describe('occurrences', () => {
  it('counts non-overlapping matches from left to right', () => {
    expect(occurrences('aaaa', 'aa')).toEqual([0, 2]);
    expect(occurrences('abc', 'd')).toEqual([]);
  });
});

describe('edit keeps the file mode', () => {
  // 0o666 and 0o777 have bits the usual umask (022) takes from a new file; 0o1755 a bit no create mode sets: each must come back.
  it.each([0o600, 0o644, 0o755, 0o444, 0o666, 0o777, 0o1755])('%o', async (mode) => {
    const ws = await makeWorkspace({ 'a.sh': 'echo helo\n' });
    await chmod(join(ws, 'a.sh'), mode);
    const out = await editTool.execute({ file_path: 'a.sh', old_string: 'helo', new_string: 'hello' }, context(ws));
    expect(out.isError).toBeUndefined();
    expect(await readFile(join(ws, 'a.sh'), 'utf8')).toBe('echo hello\n');
    expect((await stat(join(ws, 'a.sh'))).mode & 0o7777).toBe(mode);
  });
});
