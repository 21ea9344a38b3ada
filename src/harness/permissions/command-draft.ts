/**
 * What the per-command judges (command-*.ts) build and share: the judgement of
 * one simple command, its mutable draft, and the path access they record.
 * command-model.ts dispatches to the judges; they import only this file.
 */
import type { ArgValue } from './option-parse.js';
import type { ShellFlag } from './shell-types.js';
import type { ShellWord } from './shell-words.js';
import type { PathAccess, TreeRead } from './types.js';
import { isRuleOn } from './rule-switches.js';

export interface CommandJudgement {
  /** Null when the command is read-only, else why not (model-facing). */
  readonly notReadOnly: string | null;
  readonly accesses: readonly PathAccess[];
  /** Directories later relative paths may resolve against (`cd x`, `env -C x`, `git -C x`); null = not static. */
  readonly cwds: readonly (string | null)[];
  readonly flags: readonly ShellFlag[];
  /** Directories a git command runs in (relative to the command's cwd), for the repository-trust check. */
  readonly gitDirs: readonly (string | null)[];
  /** Scripts of shells the command starts (`find -exec sh -c SCRIPT`): analyzed as commands (null = not static). */
  readonly scripts: readonly (string | null)[];
  /**
   * Targets of symlinks it creates (`ln -s T L`). A link is judged where it is
   * used, so alone this is harmless; used by a later part of the same command
   * line it was never judged (shell-paths.ts judges the target then).
   */
  readonly linkTargets: readonly PathAccess[];
  /** Set when it runs code faultline cannot see (a script, inline code, an unknown program): what runs, model-facing. */
  readonly unseenCode: string | null;
}

/** Mutable builder shared by the per-command judges. */
export interface Draft {
  notReadOnly: string | null;
  accesses: PathAccess[];
  cwds: (string | null)[];
  flags: ShellFlag[];
  gitDirs: (string | null)[];
  scripts: (string | null)[];
  linkTargets: PathAccess[];
  unseenCode: string | null;
}

/** Options whose value is a program the command runs: code named in a word, refused in every mode. */
export const RUNS_VALUE: ReadonlySet<string> = new Set(['sort --compress-program', 'rg --pre', 'rg --hostname-bin', 'git grep -O', 'git grep --open-files-in-pager']);

export function access(p: ArgValue | ShellWord, kind: PathAccess['access'], via: string, tree?: TreeRead): PathAccess {
  const t = tree ?? p.tree;
  return { path: p.value, access: kind, glob: p.glob, pattern: p.pattern, via, ...(t && isRuleOn('tree_reads') ? { tree: t } : {}) };
}
