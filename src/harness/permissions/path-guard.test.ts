import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPath, type PathGuardOptions } from './path-guard.js';
import { DEFAULT_PROTECTED_PATHS } from './protected-paths.js';

let base: string;
let ws: string;
let outside: string;
let opts: PathGuardOptions;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'faultline-pg-'));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'x');
  symlinkSync(outside, path.join(ws, 'escape')); // directory link out of the workspace
  symlinkSync(path.join(outside, 'new-file'), path.join(ws, 'dangling')); // link to a file that does not exist yet
  symlinkSync(path.join(ws, '.git', 'hooks'), path.join(ws, 'hooks-alias'));
  symlinkSync(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
  symlinkSync(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
  opts = { workspaceRoot: ws, homeDir: path.join(base, 'home') };
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const effect = (p: string | null, access: 'read' | 'write', o: Partial<PathGuardOptions> = {}): string => {
  const v = checkPath(p, access, { ...opts, ...o });
  return `${v.effect}:${v.kind}`;
};

describe('path guard', () => {
  it('passes reads and writes inside the workspace, relative or absolute, existing or not', () => {
    expect(effect('src/a.ts', 'write')).toBe('pass:inside');
    expect(effect(path.join(ws, 'src', 'new', 'deep.ts'), 'write')).toBe('pass:inside');
    expect(effect('README.md', 'read')).toBe('pass:inside');
  });

  it('denies writes outside the workspace and asks for reads outside it', () => {
    expect(effect('../outside/x', 'write')).toBe('deny:outside');
    expect(effect(path.join(outside, 'secret.txt'), 'read')).toBe('ask:outside');
  });

  it('treats system paths as system: writes denied, reads asked', () => {
    expect(effect('/etc/passwd', 'write')).toBe('deny:system');
    expect(effect('/usr/include/stdio.h', 'read')).toBe('ask:system');
  });

  it('lets harmless devices through', () => {
    expect(effect('/dev/null', 'write')).toBe('pass:device');
  });

  it('judges a symlink inside the workspace by where it points', () => {
    expect(effect('escape/secret.txt', 'write')).toBe('deny:outside');
    expect(effect('escape/secret.txt', 'read')).toBe('ask:outside');
    expect(effect('dangling', 'write')).toBe('deny:outside');
  });

  it('would be fooled by the symlink if it only looked at the lexical path (control)', () => {
    expect(path.resolve(ws, 'escape/secret.txt').startsWith(ws)).toBe(true);
    expect(checkPath('escape/secret.txt', 'write', opts).resolved).toBe(path.join(outside, 'secret.txt'));
  });

  it('refuses writes into .git/hooks, also through a symlink, and leaves reads alone', () => {
    const v = checkPath('.git/hooks/pre-commit', 'write', opts);
    expect([v.effect, v.source, v.ruleId]).toEqual(['deny', 'protected_path', 'protected:git_hooks']);
    expect(effect('hooks-alias/pre-commit', 'write')).toBe('deny:protected');
    expect(effect('.git/hooks/pre-commit', 'read')).toBe('pass:inside');
  });

  it('asks (never allows) for approvable protected paths such as git internals', () => {
    expect(effect('.git/HEAD', 'write')).toBe('ask:protected');
    expect(effect('.faultline/config.yaml', 'write')).toBe('ask:protected');
    expect(effect('.faultline/hooks/pre.js', 'write')).toBe('deny:protected');
  });

  it('depends on table order: with the looser parent first, the hook directory would only ask (docs/harness-rules.md#permission-chain)', () => {
    const reversed = [...DEFAULT_PROTECTED_PATHS].reverse();
    expect(effect('.git/hooks/pre-commit', 'write', { protectedPaths: reversed })).toBe('ask:protected');
    expect(effect('.git/hooks/pre-commit', 'write')).toBe('deny:protected');
  });

  it('classifies secrets as sensitive wherever they are, for reads too', () => {
    expect(effect('~/.ssh/id_rsa', 'read')).toBe('deny:sensitive');
    expect(effect('deploy/id_ed25519', 'read')).toBe('deny:sensitive');
    expect(effect('~/.aws/credentials', 'read')).toBe('deny:sensitive');
    expect(effect('.env', 'read')).toBe('ask:sensitive');
    expect(effect('.env.production', 'write')).toBe('ask:sensitive');
    expect(effect('.env.example', 'read')).toBe('pass:inside');
    expect(effect('.npmrc', 'read')).toBe('ask:sensitive');
  });

  it('gives the same verdicts with a directory memo, and still sees a leaf swapped for a symlink while it is shared', () => {
    const memo = new Map<string, string>();
    for (const [p, access] of [['escape/secret.txt', 'write'], ['dangling', 'write'], ['hooks-alias/pre-commit', 'write'], ['src/a.ts', 'write'], ['loop-a/x', 'write']] as const) {
      expect(checkPath(p, access, { ...opts, dirMemo: memo })).toEqual(checkPath(p, access, opts));
    }
    writeFileSync(path.join(ws, 'src', 'leaf.txt'), 'x');
    expect(effect('src/leaf.txt', 'write', { dirMemo: memo })).toBe('pass:inside');
    unlinkSync(path.join(ws, 'src', 'leaf.txt'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'src', 'leaf.txt'));
    expect(effect('src/leaf.txt', 'write', { dirMemo: memo })).toBe('deny:outside');
  });

  it('survives a symlink loop without throwing, also one through a `..` target', () => {
    expect(() => checkPath('loop-a/x', 'write', opts)).not.toThrow();
    symlinkSync('src/../dotdot-loop', path.join(ws, 'dotdot-loop'));
    expect(() => checkPath('dotdot-loop', 'write', opts)).not.toThrow();
  });

  it('follows a dangling link whose text has `..` after a symlink the way the kernel does', () => {
    // `up -> escape/../made`: `escape` is followed first, so writing `up` creates made next to outside/.
    symlinkSync('escape/../made', path.join(ws, 'up'));
    expect(effect('up', 'write')).toBe('deny:outside');
  });

  it('treats paths it cannot know as unknown (ask)', () => {
    expect(effect(null, 'write')).toBe('ask:unknown');
    expect(effect('~root/.bashrc', 'read')).toBe('ask:unknown');
  });

  it('accepts extra roots and a working directory for relative paths', () => {
    expect(effect(path.join(outside, 'x'), 'write', { extraRoots: [outside] })).toBe('pass:inside');
    expect(effect('x', 'write', { cwd: outside })).toBe('deny:outside');
  });
});
