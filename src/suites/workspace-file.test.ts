import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectWorkspaceFile } from './workspace-file.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-wsfile-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('what an expect.files check sees of a workspace path', () => {
  // The plain paths take the one-walk read, the linked ones the resolving read: both must answer as a person looking would.
  it('answers plain paths and paths through links alike, never reading outside the workspace', () => {
    const ws = join(base, 'ws');
    mkdirSync(join(ws, 'sub', 'deep'), { recursive: true });
    writeFileSync(join(ws, 'a.txt'), 'alpha\n');
    writeFileSync(join(ws, 'sub', 'deep', 'b.txt'), 'beta\n');
    writeFileSync(join(base, 'outside.txt'), 'outside\n');
    symlinkSync('sub', join(ws, 'linkdir'));
    symlinkSync('a.txt', join(ws, 'alias.txt'));
    symlinkSync(join(base, 'outside.txt'), join(ws, 'out.txt'));
    symlinkSync('..', join(ws, 'up'));
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    const seen = (rel: string) => inspectWorkspaceFile(ws, join(ws, rel));
    expect(seen('a.txt')).toEqual({ kind: 'file', text: 'alpha\n' });
    expect(seen('sub/deep/b.txt')).toEqual({ kind: 'file', text: 'beta\n' });
    expect(seen('sub/deep')).toEqual({ kind: 'directory' });
    expect(seen('missing.txt')).toEqual({ kind: 'missing' });
    expect(seen('nowhere/b.txt')).toEqual({ kind: 'missing' });
    expect(seen('a.txt/b.txt')).toEqual({ kind: 'missing' });
    expect(seen('pipe')).toEqual({ kind: 'special', what: 'named pipe (FIFO)' });
    expect(seen('alias.txt')).toEqual({ kind: 'file', text: 'alpha\n' });
    expect(seen('linkdir/deep/b.txt')).toEqual({ kind: 'file', text: 'beta\n' });
    expect(seen('out.txt')).toMatchObject({ kind: 'outside' });
    expect(seen('up/outside.txt')).toMatchObject({ kind: 'outside' });
  });

  it('reads a workspace named through a link to it as the directory itself', () => {
    const ws = join(base, 'real-ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'c.txt'), 'gamma\n');
    symlinkSync(ws, join(base, 'ws-link'));
    const linked = join(base, 'ws-link');
    expect(inspectWorkspaceFile(linked, join(linked, 'c.txt'))).toEqual({ kind: 'file', text: 'gamma\n' });
  });
});
