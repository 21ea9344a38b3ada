import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoCodeRules } from './repo-code-paths.js';

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
