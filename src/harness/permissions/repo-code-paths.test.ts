import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPermission } from './chain.js';
import { repoCodeRules } from './repo-code-paths.js';
import type { PermissionConfig } from './types.js';

const root = mkdtempSync(join(tmpdir(), 'faultline-repo-code-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function repo(name: string, config: string): string {
  const ws = join(root, name);
  mkdirSync(join(ws, '.git'), { recursive: true });
  writeFileSync(join(ws, '.git', 'config'), config);
  return ws;
}

describe('repoCodeRules', () => {
  it('protects the hooks path and included files the repository config names, resolved as git resolves them', () => {
    const ws = repo('a', '[core]\n\tbare = false\n\thooksPath = .husky  # husky\n[include]\n\tpath = ../team.gitconfig\n[includeIf "gitdir:~/work/"]\n\tpath = "~/extra.gitconfig"\n');
    const rules = repoCodeRules(ws, '/home/u');
    expect(rules.map((r) => [r.id, r.prefix, r.writesOnly, r.approvable])).toEqual([
      ['repo_hooks_path', join(ws, '.husky'), true, false],
      ['repo_included_config', join(ws, 'team.gitconfig'), true, false],
      ['repo_included_config', '/home/u/extra.gitconfig', true, false],
    ]);
  });

  it('is empty without a config, and follows a changed config', () => {
    expect(repoCodeRules(join(root, 'none'), '/home/u')).toEqual([]);
    const ws = repo('b', '[core]\n\tbare = false\n');
    expect(repoCodeRules(ws, '/home/u')).toEqual([]);
    writeFileSync(join(ws, '.git', 'config'), '[core]\n\thookspath = /srv/hooks\n');
    expect(repoCodeRules(ws, '/home/u').map((r) => r.prefix)).toEqual(['/srv/hooks']);
  });
});

describe('the repository code-path rules in the permission chain', () => {
  // Looked up only for a call that writes (call-view.ts): a read is judged the same without them, a write never is.
  const ws = repo('chain', '[core]\n\thooksPath = .husky\n');
  mkdirSync(join(ws, '.husky'), { recursive: true });
  writeFileSync(join(ws, '.husky', 'pre-commit'), 'npm test\n');
  const cfg: PermissionConfig = { mode: 'bypass', headless: true, workspaceRoot: ws, homeDir: join(root, 'home') };
  const subject = (access: 'read' | 'write' | 'any', sandboxed = false) =>
    checkPermission({ tool: access === 'read' ? 'read' : 'write', input: {}, readOnly: access === 'read', paths: [{ path: '.husky/pre-commit', access }] }, { ...cfg, sandboxed });

  it('refuses a write under the hooks path, and an opaque operand there unless the sandbox confines writes', () => {
    expect([subject('write').decision, subject('write').ruleId]).toEqual(['deny', 'protected:repo_hooks_path']);
    expect(subject('any').decision).toBe('deny');
    expect(subject('any', true).ruleId).not.toBe('protected:repo_hooks_path');
  });

  it('lets a read there through, as before', () => {
    expect(subject('read').decision).toBe('allow');
  });
});
