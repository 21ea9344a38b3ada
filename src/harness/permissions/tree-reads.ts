/**
 * What a command that reads a whole directory tree reaches (PathAccess.tree):
 * the directory itself is judged by the path guard as any path; this walks
 * the tree for what the path guard cannot see from the top:
 *
 *  - symlinks inside it that the command follows (`grep -R`, `diff -r`,
 *    `find -L`) or hands to a command that does (`find . -exec cat {} +`
 *    passes `./link` to cat): each is judged where it leads, and a link to a
 *    directory is walked in turn;
 *  - for a tree outside the workspace, the secrets under it: `grep -r x ~`
 *    reads ~/.ssh/id_rsa although `~` itself is only "outside".
 *
 * A tree inside the workspace read without following links needs no walk
 * (nothing in it leads out; the workspace's own secrets such as `.env` are
 * not re-judged for tree reads — a known, documented trade-off). More than
 * MAX_TREE_ENTRIES entries, or an unreadable directory, is an unknown: a
 * firm ask naming the command and the directory.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import type { PathVerdict } from './path-guard.js';
import { SENSITIVE_PATHS, firstMatch } from './protected-paths.js';
import { reachedExecs } from './find-expr.js';
import type { TreeRead } from './types.js';

export const MAX_TREE_ENTRIES = 20_000;

interface Entry {
  readonly path: string;
  readonly name: string;
  readonly symlink: boolean;
  readonly dir: boolean;
}

export interface TreeFs {
  readdir(dir: string): { name: string; isSymbolicLink(): boolean; isDirectory(): boolean }[];
  isDirectory(p: string): boolean;
}

const realTreeFs: TreeFs = {
  readdir: (dir) => nodeFs.readdirSync(dir, { withFileTypes: true }),
  isDirectory: (p) => nodeFs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true,
};

/**
 * Extra verdicts for reading `root` (already judged: `rootVerdict`) as a tree.
 * `check` judges one path the way the command touches it (read, or written
 * by `find -exec rm {}`). `via` names the command for the refusal text.
 */
export function treeVerdicts(rootVerdict: PathVerdict, tree: TreeRead, check: (p: string) => PathVerdict, via: string, fs: TreeFs = realTreeFs): PathVerdict[] {
  const out: PathVerdict[] = [];
  const start = rootVerdict.resolved;
  if (start === null || rootVerdict.effect === 'deny' || !safe(() => fs.isDirectory(start))) return out;
  const queue: { dir: string; inside: boolean }[] = [{ dir: start, inside: rootVerdict.kind === 'inside' }];
  const seen = new Set<string>([start]);
  let budget = MAX_TREE_ENTRIES;
  while (queue.length > 0) {
    const { dir, inside } = queue.shift() as { dir: string; inside: boolean };
    if (inside && tree.mode === 'walk') continue;
    const complete = walk(dir, fs, inside, (e) => {
      budget--;
      if (!inside) {
        const secret = firstMatch(SENSITIVE_PATHS, e.path.split(path.sep).filter(Boolean), 'read');
        if (secret && !secret.approvable) out.push(check(e.path));
      }
      if (!e.symlink || tree.mode === 'walk') return budget > 0;
      const handedOn = !tree.find || reachedExecs(tree.find.tree, { name: e.name, symlink: true }, tree.find.follow).has(tree.find.exec);
      const v = check(e.path);
      const intoDir = v.resolved !== null && safe(() => fs.isDirectory(v.resolved as string));
      // Following links, the command walks into a linked directory whether or not the link itself is handed on.
      if (!handedOn && !(tree.mode === 'follow' && intoDir)) return budget > 0;
      out.push(v);
      // A link to a directory leads to a tree of its own (which may be outside, or hold more links).
      if (intoDir && v.effect !== 'deny' && !seen.has(v.resolved as string)) {
        seen.add(v.resolved as string);
        queue.push({ dir: v.resolved as string, inside: v.kind === 'inside' });
      }
      return budget > 0;
    });
    if (!complete) {
      out.push({
        kind: 'unknown', effect: 'ask', source: 'path_guard', ruleId: 'tree_unchecked', resolved: dir, firm: true,
        reason: `${via} reads every file under ${dir}, and faultline could not check them all (more than ${MAX_TREE_ENTRIES} entries) for links out of the workspace and secrets; name the files, or a smaller directory inside the workspace.`,
      });
      break;
    }
  }
  return out;
}

/** Depth-first over `root` without following symlinks; false when `visit` asks to stop (the budget ran out). */
function walk(root: string, fs: TreeFs, inside: boolean, visit: (e: Entry) => boolean): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let dirents: ReturnType<TreeFs['readdir']>;
    try {
      dirents = fs.readdir(dir);
    } catch {
      continue; // the command, running as the same user, cannot read it either
    }
    for (const d of dirents) {
      const p = dir.endsWith(path.sep) ? dir + d.name : dir + path.sep + d.name;
      const e: Entry = { path: p, name: d.name, symlink: d.isSymbolicLink(), dir: d.isDirectory() };
      if (!visit(e)) return false;
      // The workspace's own .git holds no links the agent made (it cannot write there): not walked.
      if (e.dir && !(inside && d.name === '.git')) stack.push(p);
    }
  }
  return true;
}

function safe(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}
