/**
 * Which repository git will use from a directory, and whether its
 * configuration is one the agent cannot have written. git discovers its
 * repository by walking up: `D/.git` (a directory, or a file `gitdir: X`),
 * else D itself when D looks like a repository (HEAD, objects/, refs/ — a
 * bare repository). The agent can write files anywhere in the workspace but
 * not under `.git/` (protected paths), so a `.git` directory, or a gitfile
 * leading into a `.git/` directory (worktrees, submodules), is trusted; a
 * bare-repository-shaped directory, or a gitfile leading anywhere else, has a
 * `config` the agent may have written (`core.fsmonitor = <program>` runs on
 * `git status`). Such a repository makes every git command need approval.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';

export interface GitRepoFs {
  statSync(p: string): { isDirectory(): boolean; isFile(): boolean } | undefined;
  readFileSync(p: string): string;
}

const realGitFs: GitRepoFs = {
  statSync: (p) => nodeFs.statSync(p, { throwIfNoEntry: false }),
  readFileSync: (p) => nodeFs.readFileSync(p, 'utf8'),
};

/** Null when git would use a trusted repository (or none) from `dir`, else why not (model-facing). */
export function untrustedRepository(dir: string, fs: GitRepoFs = realGitFs): string | null {
  let d = path.resolve(dir);
  for (;;) {
    const dotGit = path.join(d, '.git');
    const st = safeStat(fs, dotGit);
    if (st?.isDirectory()) return null;
    if (st?.isFile()) {
      const target = gitfileTarget(fs, dotGit);
      if (target !== null && target.split(path.sep).includes('.git')) return null;
      return `git would use the repository ${target ?? dotGit} named by the file ${dotGit}, whose configuration may run programs and is not protected`;
    }
    if (looksLikeGitDir(fs, d)) {
      if (d.split(path.sep).includes('.git')) return null;
      return `git would use ${d} as a bare repository; its config file is not protected and may make git run a program (core.fsmonitor, core.pager, diff drivers)`;
    }
    const parent = path.dirname(d);
    if (parent === d) return null;
    d = parent;
  }
}

function safeStat(fs: GitRepoFs, p: string): ReturnType<GitRepoFs['statSync']> {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

function gitfileTarget(fs: GitRepoFs, file: string): string | null {
  try {
    const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(file));
    return m ? path.resolve(path.dirname(file), (m[1] as string).trim()) : null;
  } catch {
    return null;
  }
}

/** git's is_git_directory: HEAD, objects/ and refs/ (commondir is not followed here: fail closed on it too). */
function looksLikeGitDir(fs: GitRepoFs, d: string): boolean {
  const head = safeStat(fs, path.join(d, 'HEAD'));
  if (!head) return false;
  const objects = safeStat(fs, path.join(d, 'objects'));
  const refs = safeStat(fs, path.join(d, 'refs'));
  const commondir = safeStat(fs, path.join(d, 'commondir'));
  return (objects?.isDirectory() === true || commondir !== undefined) && (refs?.isDirectory() === true || commondir !== undefined);
}
