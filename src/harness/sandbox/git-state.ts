/**
 * Git state that runs programs, judged by what git uses rather than by the
 * name `.git`. Protecting `.git/hooks` and `.git/config` by path misses a
 * `.git` renamed and copied back, a hook written in the same call as
 * `git init`, nested repositories, submodule git dirs, a
 * `--separate-git-dir`, a `.git` file or symlink, and a config edited
 * through any of those: the host's next `git commit` or `git status` in the
 * workspace then runs the model's program.
 *
 * So around every call that may change files, the harness finds every
 * directory git would use as a repository in the workspace (a `.git`
 * directory, the target of a `.git` file or symlink inside the workspace, or
 * any directory shaped like one: HEAD with objects/ and refs/, or a
 * commondir — a bare or separated git dir, submodules under
 * `.git/modules`, worktrees) and records its hooks and the settings of its
 * config files that make git run a program. After the call, a hook that is
 * new or changed is renamed (`<name>.disabled-by-faultline`, so git no
 * longer runs it and a person can still read it), and a program-running
 * setting that is new is removed from the config; the model is told. What
 * the repository had before the session (a husky `core.hooksPath`, its own
 * hooks) stays as it was.
 */
import { lstatSync, readdirSync, type Dirent, readFileSync, realpathSync, renameSync, statSync, writeFileSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import { parseConfig } from './git-config-text.js';

/** Directories never walked for repositories (sizes, not trust: a repository there is still found through a `.git` link). */
const SKIP_DIRS = new Set(['node_modules']);
/** The walk stops after this many directories (a huge tree is judged by what was seen; the root repository always is). */
const MAX_DIRS = 20_000;
export const DISABLED_SUFFIX = '.disabled-by-faultline';

export interface GitDirState {
  /** hook name -> size:mtime:inode of each hook file (in hooks/ and a hooksPath inside the workspace). */
  readonly hooks: Map<string, string>;
  /** config file -> the program-running settings in it (`section.key=value` lines). */
  readonly settings: Map<string, Set<string>>;
}

export type GitState = Map<string, GitDirState>;

/** Every git dir in the workspace, with its hooks and program-running settings. */
/** `realRoot`: the workspace's real path when the caller holds it (resolved once per session); absent: resolved here. */
export function captureGitState(workspace: string, realRoot?: string): GitState {
  const state: GitState = new Map();
  for (const dir of findGitDirs(workspace, realRoot)) state.set(dir, stateOf(dir, workspace));
  return state;
}

/** Undoes what a call added since `before`; returns one sentence per change undone (empty when none). */
export function neutraliseNewGitState(workspace: string, before: GitState, realRoot?: string): string[] {
  const notes: string[] = [];
  for (const dir of findGitDirs(workspace, realRoot)) {
    const was = before.get(dir);
    const now = stateOf(dir, workspace);
    for (const [hook, sig] of now.hooks) {
      if (was?.hooks.get(hook) === sig) continue;
      try {
        renameSync(hook, hook + DISABLED_SUFFIX);
        notes.push(`disabled the git hook ${path.relative(workspace, hook)} (renamed to ${path.basename(hook)}${DISABLED_SUFFIX})`);
      } catch {
        notes.push(`could not disable the git hook ${path.relative(workspace, hook)}`);
      }
    }
    for (const [file, settings] of now.settings) {
      const added = [...settings].filter((s) => !(was?.settings.get(file)?.has(s) ?? false));
      if (added.length === 0) continue;
      const names = added.map((a) => a.split('=')[0]).join(', ');
      try {
        removeSettings(file, new Set(added), workspace);
        notes.push(`removed ${names} from ${path.relative(workspace, file)}`);
      } catch {
        notes.push(`could not remove ${names} from ${path.relative(workspace, file)}`);
      }
    }
  }
  return notes;
}

/** The model-facing note appended to a call's output when something was undone. */
export function gitStateNote(notes: readonly string[]): string {
  return `(faultline: this call left git set up to run programs on the next git command; undone: ${notes.join('; ')}.)`;
}

function safeStat(p: string, follow = false): Stats | undefined {
  try {
    return follow ? statSync(p) : lstatSync(p);
  } catch {
    return undefined;
  }
}

function inside(workspace: string, p: string): boolean {
  return p === workspace || p.startsWith(workspace + path.sep);
}

/** git's is_git_directory: HEAD, and objects/ and refs/ (or a commondir naming where they are). */
function looksLikeGitDir(d: string): boolean {
  if (safeStat(path.join(d, 'HEAD'), true)?.isFile() !== true) return false;
  if (safeStat(path.join(d, 'commondir'), true)?.isFile() === true) return true;
  return safeStat(path.join(d, 'objects'), true)?.isDirectory() === true && safeStat(path.join(d, 'refs'), true)?.isDirectory() === true;
}

export function findGitDirs(workspace: string, realRoot?: string): string[] {
  let root: string;
  try {
    root = realRoot ?? realpathSync.native(workspace);
  } catch {
    return [];
  }
  const found = new Set<string>();
  const add = (d: string) => {
    try {
      const real = realpathSync.native(d);
      if (inside(root, real) && looksLikeGitDir(real)) found.add(real);
    } catch {
      // dangling
    }
  };
  const queue = [root];
  let visited = 0;
  // Entry types from readdir (no stat per file): the walk costs a few ms on a usual repository.
  while (queue.length > 0 && visited < MAX_DIRS) {
    const dir = queue.pop() as string;
    visited += 1;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    if (entries.some((e) => e.name === 'HEAD') && looksLikeGitDir(dir)) found.add(dir);
    const isGitDir = found.has(dir);
    for (const e of entries) {
      const n = e.name;
      const p = path.join(dir, n);
      if (n === '.git') {
        if (e.isFile()) {
          const target = gitfileTarget(p);
          if (target !== null) add(target);
        } else if (e.isSymbolicLink()) add(p);
      }
      if (!e.isDirectory()) continue;
      // Inside a git dir only modules/ and worktrees/ hold more git dirs (objects/ alone can be huge).
      if (isGitDir && n !== 'modules' && n !== 'worktrees') continue;
      if (SKIP_DIRS.has(n)) continue;
      queue.push(p);
    }
  }
  return [...found].sort();
}

function gitfileTarget(file: string): string | null {
  try {
    const m = /^gitdir: (.+)$/m.exec(readFileSync(file, 'utf8'));
    return m ? path.resolve(path.dirname(file), (m[1] as string).trim()) : null;
  } catch {
    return null;
  }
}

function stateOf(gitDir: string, workspace: string): GitDirState {
  const settings = new Map<string, Set<string>>();
  const configFiles = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')];
  const common = commonDirOf(gitDir);
  if (common !== null && inside(workspace, common)) configFiles.push(path.join(common, 'config'));
  let hooksPath: string | null = null;
  for (const file of configFiles) {
    const parsed = programSettings(file);
    if (parsed === null) continue;
    settings.set(file, parsed.settings);
    if (parsed.hooksPath !== null) hooksPath = path.resolve(path.dirname(path.dirname(file)), parsed.hooksPath);
  }
  const hooks = new Map<string, string>();
  for (const dir of [path.join(gitDir, 'hooks'), ...(common !== null ? [path.join(common, 'hooks')] : []), ...(hooksPath !== null ? [hooksPath] : [])]) {
    if (!inside(workspace, dir)) continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      if (n.endsWith('.sample') || n.endsWith(DISABLED_SUFFIX)) continue;
      const p = path.join(dir, n);
      const st = safeStat(p, true);
      if (st?.isFile() === true) hooks.set(p, `${st.size}:${st.mtimeMs}:${st.ino}`);
    }
  }
  return { hooks, settings };
}

function commonDirOf(gitDir: string): string | null {
  try {
    return path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return null;
  }
}

function programSettings(file: string): { settings: Set<string>; hooksPath: string | null } | null {
  let text: string;
  try {
    if (safeStat(file, true)?.isFile() !== true) return null;
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const { parsed, hooksPath } = parseConfig(text);
  return { settings: new Set(parsed.flatMap((p) => (p.setting === null ? [] : [p.setting]))), hooksPath };
}

/**
 * Rewrites `file` without the lines holding `remove` (a section header line keeps its header). Written to a
 * new file renamed over the name: never through a symlink or a hard link to something outside.
 */
function removeSettings(file: string, remove: ReadonlySet<string>, workspace: string): void {
  if (!inside(realpathSync(workspace), realpathSync(path.dirname(file)))) throw new Error('outside the workspace');
  const text = readFileSync(file, 'utf8');
  const { lines, parsed } = parseConfig(text);
  const out: string[] = [];
  lines.forEach((line, i) => {
    const setting = parsed[i]?.setting ?? null;
    if (setting === null || !remove.has(setting)) {
      out.push(line);
      return;
    }
    const header = /^\s*\[[^\]]*\]/.exec(line);
    if (header) out.push(header[0]);
  });
  const tmp = `${file}.faultline-${process.pid}.tmp`;
  writeFileSync(tmp, out.join('\n'), { flag: 'wx' });
  renameSync(tmp, file);
}
