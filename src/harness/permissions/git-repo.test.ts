import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { untrustedRepository } from './git-repo.js';

const root = mkdtempSync(join(tmpdir(), 'faultline-gitrepo-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dir = (...p: string[]) => {
  const d = join(root, ...p);
  mkdirSync(d, { recursive: true });
  return d;
};

describe('repository trust', () => {
  it('trusts a .git directory and a gitfile leading into one', () => {
    dir('ws', '.git');
    expect(untrustedRepository(dir('ws', 'src'))).toBeNull();
    dir('ws', '.git', 'modules', 'sub');
    writeFileSync(join(dir('ws', 'sub'), '.git'), 'gitdir: ../.git/modules/sub\n');
    expect(untrustedRepository(join(root, 'ws', 'sub'))).toBeNull();
  });

  it('does not trust a bare-repository-shaped directory, found before the real repository above it', () => {
    const bare = dir('ws', 'vendor');
    dir('ws', 'vendor', 'objects');
    dir('ws', 'vendor', 'refs');
    writeFileSync(join(bare, 'HEAD'), 'ref: refs/heads/main\n');
    expect(untrustedRepository(bare)).toMatch(/bare repository/);
  });

  it('does not trust a gitfile leading outside a .git directory', () => {
    const evil = dir('ws', 'evil');
    writeFileSync(join(dir('ws', 'lib'), '.git'), `gitdir: ${evil}\n`);
    expect(untrustedRepository(join(root, 'ws', 'lib'))).toMatch(/named by the file/);
  });

  it('judges a .git symlink, a commondir and a directory reached through a link by where they really lead', () => {
    const bare = dir('w2', 'vendor');
    dir('w2', 'vendor', 'objects');
    dir('w2', 'vendor', 'refs');
    writeFileSync(join(bare, 'HEAD'), 'ref: refs/heads/main\n');
    symlinkSync('../vendor', join(dir('w2', 'sub'), '.git'));
    expect(untrustedRepository(join(root, 'w2', 'sub'))).toMatch(/named by the symlink/);
    symlinkSync(join(bare, 'objects'), join(root, 'w2', 'deep'));
    dir('w2', '.git');
    expect(untrustedRepository(join(root, 'w2', 'deep'))).toMatch(/bare repository/);
    writeFileSync(join(root, 'w2', '.git', 'commondir'), '../vendor\n');
    expect(untrustedRepository(join(root, 'w2', 'src'))).toMatch(/commondir/);
    writeFileSync(join(root, 'w2', '.git', 'commondir'), '.\n');
    expect(untrustedRepository(join(root, 'w2', 'src'))).toBeNull();
  });
});
