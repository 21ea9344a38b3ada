/**
 * Symlink-aware path resolution for the path guard. `realpath` fails on a
 * path that does not exist yet (a file about to be written), so we resolve
 * the nearest existing ancestor and append the rest; a dangling symlink is
 * followed by hand, because writing through it creates its target.
 *
 * Common case, cheaply: the real path of the parent directory (one
 * `realpath`, or a `RealDirMemo` hit) plus ONE `lstat` of the leaf. A leaf
 * that is not a symlink resolves to `realParent/leaf` — exactly what
 * `realpath` of the whole path answers, without lstat-ing every component
 * again; a leaf that is a symlink (or a parent that does not resolve) takes
 * the full walk below, unchanged.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { isRuleOn } from './rule-switches.js';

export interface PathFs {
  realpathSync(p: string): string;
  /** `undefined` (or a throw) when `p` does not exist. */
  lstatSync(p: string): { isSymbolicLink(): boolean } | undefined;
  readlinkSync(p: string): string;
}

export const realFs: PathFs = {
  realpathSync: (p) => nodeFs.realpathSync.native(p),
  lstatSync: (p) => nodeFs.lstatSync(p, { throwIfNoEntry: false }),
  readlinkSync: (p) => nodeFs.readlinkSync(p, 'utf8'),
};

/**
 * Real paths of PARENT directories (lexical absolute path -> real path),
 * shared by the path checks of one batch of read-only calls and then thrown
 * away. The leaf of every path is still lstat-ed on every check, so a leaf
 * swapped for a symlink is always seen; only a directory swapped between two
 * checks that share the memo would be missed, and the pipeline makes sure
 * nothing the agent runs can do that in between: see `BatchPathMemo`
 * (pipeline/batch-path-memo.ts) for the lifetime and why it is safe. Never
 * keep one across batches or turns: that widens the check/use window.
 */
export type RealDirMemo = Map<string, string>;

const MAX_LINKS = 40;

/** The real absolute path `abs` refers to (or would refer to once created). */
export function resolveReal(abs: string, fs: PathFs = realFs, memo?: RealDirMemo): string {
  return resolveFrom(abs, fs, memo, { left: MAX_LINKS });
}

/**
 * Links still to follow in one resolution, shared by every nested walk: a
 * loop through `..` targets (`a -> x/../a`) nests walks inside walks, and a
 * per-walk count would multiply instead of adding up.
 */
interface LinkBudget {
  left: number;
}

function resolveFrom(abs: string, fs: PathFs, memo: RealDirMemo | undefined, budget: LinkBudget): string {
  const current = path.resolve(abs);
  const parent = path.dirname(current);
  if (parent !== current) {
    const realParent = realDir(parent, fs, memo);
    // Not a symlink (exists or not): realpath(parent)/leaf is what the full walk answers.
    if (realParent !== null && !isSymlink(current, fs)) return joinLeaf(realParent, path.basename(current));
  }
  return walk(current, fs, budget);
}

/** path.join for a real (absolute, normalized) directory and one plain name, without join's normalizing pass. */
function joinLeaf(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

function realDir(dir: string, fs: PathFs, memo: RealDirMemo | undefined): string | null {
  const hit = memo?.get(dir);
  if (hit !== undefined) return hit;
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return null; // missing or unreadable: the full walk decides
  }
  memo?.set(dir, real);
  return real;
}

function isSymlink(p: string, fs: PathFs): boolean {
  try {
    return fs.lstatSync(p)?.isSymbolicLink() === true;
  } catch {
    return false; // does not exist / unreadable: not a link (as in the walk below)
  }
}

/** The full walk: realpath, else follow a dangling symlink by hand, else walk up one component. */
function walk(abs: string, fs: PathFs, budget: LinkBudget): string {
  let current = path.resolve(abs);
  const tail: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync(current);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch {
      // Does not exist (or unreadable): a dangling symlink is followed, anything else walks up.
    }
    const isLink = isSymlink(current, fs);
    let link: string | null = null;
    if (isLink && budget.left-- > 0) {
      try {
        link = fs.readlinkSync(current);
      } catch {
        link = null; // unreadable link: judged by its own path (the lexical check still applies)
      }
    }
    if (link !== null) {
      // The kernel resolves the link's text from its directory with `..` taken physically
      // (`d -> link/../x` goes through `link`), so the target is walked, not path.resolve-d.
      const physical = isRuleOn('physical_dotdot') && hasDotDot(link);
      const target = physical ? physicalFrom(path.dirname(current), link, fs, budget) : path.resolve(path.dirname(current), link);
      const rest = tail.length ? path.join(target, ...[...tail].reverse()) : target;
      return walk(rest, fs, budget);
    }
    const parent = path.dirname(current);
    if (parent === current) return tail.length ? path.join(current, ...tail.reverse()) : current;
    tail.push(path.basename(current));
    current = parent;
  }
}

/** True when `p` is `root` or below it (both absolute, normalized). */
export function isWithin(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `p` has a `..` segment (the kernel resolves it after the symlinks before it, not lexically). */
export function hasDotDot(p: string): boolean {
  return p.includes('..') && p.split('/').includes('..');
}

/**
 * The path the kernel reaches for `p` from `base`, with every `..` taken
 * physically: `link/../x` is the parent of where `link` points, then `x`.
 * path.resolve would cancel `link/..` and judge `x` in the workspace, while
 * `cat link/../secret` reads next to the link's target. Components are
 * resolved one at a time (a symlink is followed before the next `..`).
 */
export function physicalPath(base: string, p: string, fs: PathFs = realFs): string {
  return physicalFrom(base, p, fs, { left: MAX_LINKS });
}

function physicalFrom(base: string, p: string, fs: PathFs, budget: LinkBudget): string {
  let current = path.isAbsolute(p) ? path.parse(path.resolve(p)).root : hasDotDot(base) ? physicalFrom('/', base, fs, budget) : resolveFrom(path.resolve(base), fs, undefined, budget);
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = joinLeaf(current, seg);
    // Past the budget (a link loop: the kernel fails with ELOOP) the rest is judged lexically.
    if (isSymlink(next, fs) && budget.left-- > 0) current = resolveFrom(next, fs, undefined, budget);
    else current = next;
  }
  return current;
}
