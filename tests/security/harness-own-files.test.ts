/**
 * Issue 23, class 1: files the harness reads or removes on its own account
 * after the session — the `expect.files` checks and the workspace cleanup —
 * with the tree the model left: links to the home's key, to the parent, to
 * outside, dangling, and a FIFO. Judged outside the workspace: the key's
 * content never decides a check (a check that read it would pass), nothing
 * outside is removed, a FIFO never blocks the run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateExpectations } from '../../src/suites/expectations.js';
import { removeWorkspace } from '../../src/suites/workspace.js';
import { makeLab, removeLabs, violations } from './lab.js';

afterAll(removeLabs, 180_000);

const facts = (workspace: string) => ({ finalText: '', stop: 'end_turn' as const, workspace, events: [] });

describe('expect.files checks read only below the workspace\'s real root', () => {
  it('a link to the home key, to the parent or outside never lets the key or the outside file decide a check', () => {
    const lab = makeLab((l) => {
      symlinkSync(join(l.home, '.ssh', 'id_rsa'), join(l.ws, 'result.txt'));
      symlinkSync('..', join(l.ws, 'up'));
      symlinkSync(join(l.out, 'secret.txt'), join(l.ws, 'out.txt'));
      symlinkSync('a.txt', join(l.ws, 'alias.txt')); // a link that stays inside: read as its target
    });
    const results = evaluateExpectations(
      {
        files: {
          'result.txt': { contains: lab.sshMark },
          'up/home/.ssh/id_rsa': { contains: lab.sshMark },
          'out.txt': { contains: lab.outsideMark },
          'up/outside/secret.txt': { exists: true },
          'alias.txt': { contains: 'alpha' },
        },
      },
      facts(lab.ws),
    );
    expect(results.map((r) => [r.id, r.ok])).toEqual([
      ['files.result.txt', false],
      ['files.up/home/.ssh/id_rsa', false],
      ['files.out.txt', false],
      ['files.up/outside/secret.txt', false],
      ['files.alias.txt', true],
    ]);
    expect(results[0]!.detail).toMatch(/outside the workspace/);
    expect(violations(lab, 'acceptEdits', results.map((r) => r.detail).join('\n'))).toEqual([]);
  });

  it('a FIFO or a dangling link is answered at once, never read', () => {
    const lab = makeLab((l) => {
      execFileSync('mkfifo', [join(l.ws, 'pipe')]);
      symlinkSync(join(l.out, 'none'), join(l.ws, 'dangling'));
    });
    const results = evaluateExpectations({ files: { pipe: { contains: 'x' }, dangling: { exists: false } } }, facts(lab.ws));
    expect(results.map((r) => [r.ok, r.detail])).toEqual([
      [false, 'pipe is a named pipe (FIFO), not a regular file'],
      [true, 'dangling does not exist (it does not)'],
    ]);
  });
});

describe('workspace cleanup never follows a link the model left', () => {
  it('removes the workspace and only the workspace: links to the home, the parent, outside and dangling are unlinked', () => {
    const lab = makeLab((l) => {
      symlinkSync(l.home, join(l.ws, 'h'));
      symlinkSync('..', join(l.ws, 'up'));
      mkdirSync(join(l.ws, 'deep', 'er'), { recursive: true });
      symlinkSync(join(l.out, 'dir'), join(l.ws, 'deep', 'er', 'o'));
      symlinkSync(join(l.out, 'gone'), join(l.ws, 'dangling'));
      writeFileSync(join(l.ws, 'deep', 'f.txt'), 'x');
    });
    removeWorkspace(lab.ws);
    expect(existsSync(lab.ws)).toBe(false);
    expect(readdirSync(lab.root).sort()).toEqual(['home', 'outside']);
    // Every file outside the workspace is still there with its content.
    const outside = [...lab.before].filter(([p]) => p.startsWith(lab.out) || p.startsWith(lab.home));
    expect(outside.length).toBeGreaterThan(3);
    for (const [p, content] of outside) expect(p.endsWith('/') ? existsSync(p) : readFileSync(p, 'utf8')).toBe(p.endsWith('/') ? true : content);
  });
});
