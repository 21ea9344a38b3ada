/**
 * When the walk after a call (git-state.ts) cannot find anything new: the
 * call only replaced the content of existing files (a tool declaring
 * `rewritesOnly`, which reports each name it replaced, e.g. edit), and the
 * walk before it found no git directory at all in the workspace.
 *
 * Why that is enough: with no git directory there are no hooks, no config
 * and no hooksPath to change, so the only way to a git directory is a new
 * one. git-state.ts finds one by entries that exist (HEAD, objects/ and refs/,
 * commondir, a `.git` directory or link) — an existing file's content
 * replaced under the same name adds, removes and retypes none of those —
 * or by what a `.git` FILE names: replacing a file named `.git` can, so it
 * always walks. Nothing of the model runs between or during the harness's
 * own calls (a bash call's processes die with the call:
 * tools/call-processes.ts), so the call's own change is the only change.
 */
import type { GitState } from './git-state.js';

/** True when the walk after a rewrite-only call that replaced `names` can be skipped (see above). */
export function rewriteKeepsGitState(before: GitState, names: readonly string[]): boolean {
  return before.size === 0 && !names.includes('.git');
}
