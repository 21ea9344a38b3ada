import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPinned } from '../harness/safe-fs/pinned-root.js';
import { LazyWorkspace, WORKSPACE_PREFIX } from './workspace.js';

const saved = process.env.TMPDIR;
const made: string[] = [];
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('LazyWorkspace: the temp directory', () => {
  it('follows TMPDIR as it is when each session starts (the answer of os.tmpdir() is not kept past a change)', async () => {
    const a = mkdtempSync(join(tmpdir(), 'ws-parent-a-'));
    const b = mkdtempSync(join(tmpdir(), 'ws-parent-b-'));
    made.push(a, b);
    process.env.TMPDIR = a;
    const first = new LazyWorkspace({ 'f.txt': 'x' });
    process.env.TMPDIR = b;
    const second = new LazyWorkspace({ 'f.txt': 'x' });
    const third = new LazyWorkspace({ 'f.txt': 'x' });
    expect(first.root.startsWith(join(realpathSync(a), WORKSPACE_PREFIX))).toBe(true);
    expect(second.root.startsWith(join(realpathSync(b), WORKSPACE_PREFIX))).toBe(true);
    expect(third.root.startsWith(join(realpathSync(b), WORKSPACE_PREFIX))).toBe(true);
    await first.ensure();
    await first.remove();
  });

  it('holds the made directory open for the session and gives it back on removal (no descriptor outlives it)', async () => {
    const ws = new LazyWorkspace({ 'f.txt': 'x' });
    expect(isPinned(ws.root)).toBe(false);
    await ws.ensure();
    expect(isPinned(ws.root)).toBe(true);
    await ws.remove();
    expect(isPinned(ws.root)).toBe(false);
  });

  it('is not made once removed: a tool body the session abandoned on an abort cannot leave it behind', async () => {
    const ws = new LazyWorkspace({ 'a.txt': 'x', 'sub/b.txt': 'y' });
    // The session ended (aborted) before any tool made the workspace; a late body asks for it.
    await ws.remove();
    await expect(ws.ensure()).rejects.toThrow(/the session ended: its workspace .* is not made any more/);
    expect(existsSync(ws.root)).toBe(false);
    expect(ws.failure).toBeNull();
  });
});
