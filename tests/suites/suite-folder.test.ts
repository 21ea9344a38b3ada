/**
 * `run <folder>` on a user's own project folder: suites beside a package's
 * node_modules, a git checkout's .git and .github/workflows, a compose file,
 * and symlinks that point back up the tree. Only the suites run.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSuiteFiles, loadSuites } from '../../src/suites/load-suite.js';
import { cli } from '../cli/cli-io.js';
import { tempDir } from '../helpers/temp-dirs.js';

const suite = (id: string) => `suite: mine\ntasks:\n  - id: ${id}\n    prompt: say hi\n    script:\n      - text: hi\n`;

function projectFolder(): string {
  const dir = tempDir();
  const put = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  put('suites/a.yaml', suite('task-a'));
  put('suites/nested/b.yml', suite('task-b'));
  // Someone else's files: each would be an error (or a duplicate task) if it were read as a suite.
  put('node_modules/some-pkg/suite.yaml', suite('task-a'));
  put('.git/config.yml', 'core: {}\n');
  put('.github/workflows/ci.yml', 'name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n');
  put('.hidden/suite.yaml', suite('task-a'));
  put('docker-compose.yml', 'services:\n  web:\n    image: nginx\n');
  // A link back up the tree (a cycle), a link to a folder already walked, a link to itself (ELOOP), a dangling link.
  symlinkSync('..', join(dir, 'suites/nested/up'));
  symlinkSync('nested', join(dir, 'suites/same-as-nested'));
  symlinkSync('self', join(dir, 'suites/self'));
  symlinkSync('nowhere', join(dir, 'suites/dangling.yaml'));
  return dir;
}

describe('run <folder> takes only the suites of a project folder', () => {
  it('skips node_modules and dot folders, follows each real folder once, and passes over YAML that is not a suite', () => {
    const dir = projectFolder();
    expect(findSuiteFiles([dir])).toEqual([join(dir, 'suites/a.yaml'), join(dir, 'suites/nested/b.yml')]);
    expect(loadSuites([dir]).map((t) => t.id)).toEqual(['task-a', 'task-b']);
  });

  it('runs the two suites and nothing else (exit 0)', async () => {
    const dir = projectFolder();
    const out = join(tempDir(), 'trace.jsonl');
    const { code, stdout, stderr } = await cli(['run', dir, '--out', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/2 passed/);
  });

  it('still reads a suite named on the command line, dot folder or not', () => {
    const dir = projectFolder();
    expect(loadSuites([join(dir, '.hidden/suite.yaml')]).map((t) => t.id)).toEqual(['task-a']);
    expect(loadSuites([join(dir, '.hidden')]).map((t) => t.id)).toEqual(['task-a']);
  });

  it('a folder with YAML but no suite names the files it passed over', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'compose.yml'), 'services: {}\n');
    expect(() => loadSuites([dir])).toThrow(/no tasks found in .*compose\.yml/);
  });

  it('a suite with a YAML mistake is still a suite and gets its message', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'broken.yaml'), 'tasks:\n  - id: x\n\tprompt: hi\n');
    expect(() => loadSuites([dir])).toThrow(/broken\.yaml:3:\d+: YAML/);
  });
});
