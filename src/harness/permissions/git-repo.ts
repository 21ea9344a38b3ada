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
import { resolveReal } from './path-resolve.js';
import { isRuleOn } from './rule-switches.js';

export interface GitRepoFs {
  /** Follows symlinks; undefined when missing. */
  statSync(p: string): { isDirectory(): boolean; isFile(): boolean } | undefined;
  /** Does not follow a final symlink; undefined when missing. */
  lstatSync(p: string): { isSymbolicLink(): boolean } | undefined;
  readFileSync(p: string): string;
  /** Real path of an existing path (throws when missing). */
  realpathSync(p: string): string;
}

const realGitFs: GitRepoFs = {
  statSync: (p) => nodeFs.statSync(p, { throwIfNoEntry: false }),
  lstatSync: (p) => nodeFs.lstatSync(p, { throwIfNoEntry: false }),
  readFileSync: (p) => nodeFs.readFileSync(p, 'utf8'),
  realpathSync: (p) => nodeFs.realpathSync.native(p),
};

/** Null when git would use a trusted repository (or none) from `dir`, else why not (model-facing). */
export function untrustedRepository(dir: string, fs: GitRepoFs = realGitFs): string | null {
  // git discovers from its physical working directory (getcwd): `cd link` walks up from where the link points.
  let d = isRuleOn('git_repository') ? resolveReal(path.resolve(dir)) : path.resolve(dir);
  for (;;) {
    const dotGit = path.join(d, '.git');
    const st = safe(() => fs.statSync(dotGit));
    if (st?.isDirectory()) {
      // A `.git` that is a symlink (to a directory the agent could fill) is judged where it leads.
      const link = isRuleOn('git_repository') && safe(() => fs.lstatSync(dotGit))?.isSymbolicLink() === true;
      return trustedGitDir(link ? realOf(fs, dotGit) : dotGit, fs, link ? `the symlink ${dotGit}` : null);
    }
    if (st?.isFile()) {
      const target = gitfileTarget(fs, dotGit);
      if (target === null) return `git would use the repository named by the file ${dotGit}, which cannot be read`;
      return trustedGitDir(isRuleOn('git_repository') ? realOf(fs, target) : target, fs, `the file ${dotGit}`);
    }
    if (looksLikeGitDir(fs, d)) {
      if (d.split(path.sep).includes('.git')) return trustedGitDir(d, fs, null);
      return `git would use ${d} as a bare repository; its config file is not protected and may make git run a program (core.fsmonitor, core.pager, diff drivers)`;
    }
    const parent = path.dirname(d);
    if (parent === d) return null;
    d = parent;
  }
}

/**
 * A git directory is trusted when it sits under a `.git` directory (which the
 * agent cannot write: protected paths) and so does the common directory it
 * names in `commondir` (git reads the config and hooks from there).
 */
function trustedGitDir(gitDir: string | null, fs: GitRepoFs, via: string | null): string | null {
  const named = via ? ` named by ${via}` : '';
  if (gitDir === null) return `git would use a repository${named} that does not resolve`;
  if (!underDotGit(gitDir)) return `git would use the repository ${gitDir}${named}, whose configuration may run programs and is not protected`;
  if (!isRuleOn('git_repository')) return null;
  const commondir = path.join(gitDir, 'commondir');
  if (safe(() => fs.statSync(commondir)) === undefined) return null;
  let common: string | null = null;
  try {
    common = realOf(fs, path.resolve(gitDir, fs.readFileSync(commondir).trim()));
  } catch {
    common = null;
  }
  if (common === null || !underDotGit(common)) return `git would read its configuration from ${common ?? 'an unreadable directory'} (named by ${commondir}), which is not protected and may make git run a program`;
  return null;
}

const underDotGit = (p: string): boolean => p.split(path.sep).includes('.git');

function realOf(fs: GitRepoFs, p: string): string | null {
  return safe(() => fs.realpathSync(p)) ?? null;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
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

/** git's is_git_directory: HEAD, objects/ and refs/ (or a commondir holding them). */
function looksLikeGitDir(fs: GitRepoFs, d: string): boolean {
  const head = safe(() => fs.statSync(path.join(d, 'HEAD')));
  if (!head) return false;
  const objects = safe(() => fs.statSync(path.join(d, 'objects')));
  const refs = safe(() => fs.statSync(path.join(d, 'refs')));
  const commondir = safe(() => fs.statSync(path.join(d, 'commondir')));
  return (objects?.isDirectory() === true || commondir !== undefined) && (refs?.isDirectory() === true || commondir !== undefined);
}
