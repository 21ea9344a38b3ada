/**
 * The files a parsed bash command touches, for the path guard: redirection
 * targets (writes and reads) and every operand of every command as the
 * command model judges it (command-model.ts: read-only commands' file
 * operands and file-valued options, writers' targets, the operands of
 * programs whose effects cannot be seen), plus the directories the command
 * may change into (`cd x`, `env -C x`, `git -C x`), against which relative
 * paths are also resolved, and the directories git runs in.
 */
import type { ShellAnalysis } from './shell-analysis.js';
import type { ShellWord } from './shell-words.js';
import type { PathAccess } from './types.js';
import { judged } from './command-model.js';

export interface ShellPaths {
  readonly accesses: readonly PathAccess[];
  /** Extra working directories (null = not static). Relative paths are judged against each and the workspace. */
  readonly cwds: readonly (string | null)[];
  /** Directories git commands run in (relative, null = not static), for the repository-trust check. */
  readonly gitDirs: readonly (string | null)[];
  /** The first part that runs code faultline cannot see (model-facing), or null. */
  readonly unseenCode: string | null;
}

function globRead(w: ShellWord): PathAccess {
  return { path: w.value, access: 'read', glob: true, pattern: w.pattern, via: `the glob \`${w.text.slice(0, 60)}\`` };
}

export function shellPaths(analysis: Extract<ShellAnalysis, { ok: true }>): ShellPaths {
  const accesses: PathAccess[] = [];
  const cwds: (string | null)[] = [];
  const gitDirs: (string | null)[] = [];
  let unseenCode: string | null = null;
  for (const r of analysis.redirects) {
    if (r.access === 'write' || r.access === 'read') accesses.push({ path: r.target?.value ?? null, access: r.access, glob: r.target?.glob ?? false, pattern: r.target?.pattern, via: `the redirection \`${r.op}\`` });
  }
  // A symlink made and used within one command line was not there when the line was judged: judge its target.
  const usedLater = analysis.commands.length > 1 || analysis.redirects.length > 0;
  for (const cmd of analysis.commands) {
    const j = judged(cmd);
    accesses.push(...j.accesses);
    if (usedLater) accesses.push(...j.linkTargets);
    cwds.push(...j.cwds);
    gitDirs.push(...j.gitDirs);
    unseenCode ??= j.unseenCode;
    // Every glob word lists directories to expand, whatever the command does with the result (`echo /home/*`,
    // `printf '%s\n' ../*/`): it is a read of what it can match, judged where it can match.
    for (const w of cmd.argv) if (w.glob) accesses.push(globRead(w));
  }
  for (const w of analysis.globWords) accesses.push(globRead(w));
  return { accesses, cwds, gitDirs, unseenCode };
}
