/**
 * read and edit ask the context whether their call was stopped (isStopped) instead of reading `signal`: the
 * pipeline makes the AbortSignal only when a tool reads it. The stop must still be seen exactly as before.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editTool } from './edit.js';
import { readTool } from './read.js';
import { makeWorkspace, removeWorkspaces } from './test-helpers.js';
import { callStopped, type ToolContext } from './tool.js';

afterEach(removeWorkspaces);

/** A context whose signal must not be read: reading it fails the call (an exception, not a result). */
function noSignalContext(workspace: string, stopped: () => boolean): ToolContext & { signalReads: number } {
  const controller = new AbortController();
  return {
    workspace,
    signalReads: 0,
    get signal(): AbortSignal {
      this.signalReads += 1;
      if (stopped()) controller.abort('timeout');
      return controller.signal;
    },
    isStopped: stopped,
  };
}

describe('a stopped check without the signal', () => {
  it('read and edit run to the end without reading the signal', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'alpha\nbeta\n' });
    const ctx = noSignalContext(ws, () => false);
    expect(await readTool.execute({ file_path: 'a.txt' }, ctx)).toEqual({ content: '     1\talpha\n     2\tbeta' });
    expect((await editTool.execute({ file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' }, ctx)).isError).toBeUndefined();
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');
    expect(ctx.signalReads).toBe(0);
  });

  it('a call stopped before it starts does nothing, told by isStopped alone', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'alpha\nbeta\n' });
    const ctx = noSignalContext(ws, () => true);
    expect((await readTool.execute({ file_path: 'a.txt' }, ctx)).errorCode).toBe('aborted');
    expect((await editTool.execute({ file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' }, ctx)).errorCode).toBe('aborted');
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
  });

  it('a read stopped while it located the file answers aborted (the check after the read)', async () => {
    // Longer than the binary sniff, so the bytes come from readWhole and its check after the read.
    const ws = await makeWorkspace({ 'a.txt': 'alpha\n'.repeat(2000) });
    let checks = 0;
    // false at the entry check, true from the next one on: the stop came while the file was being found.
    const ctx = noSignalContext(ws, () => checks++ > 0);
    expect((await readTool.execute({ file_path: 'a.txt' }, ctx)).errorCode).toBe('aborted');
  });

  it('callStopped falls back to signal.aborted for a context without isStopped', () => {
    const controller = new AbortController();
    const ctx: ToolContext = { workspace: '/nowhere', signal: controller.signal };
    expect(callStopped(ctx)).toBe(false);
    controller.abort();
    expect(callStopped(ctx)).toBe(true);
  });
});
