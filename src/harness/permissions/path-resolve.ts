/**
 * Symlink-aware path resolution for the path guard. `realpath` fails on a
 * path that does not exist yet (a file about to be written), so we resolve
 * the nearest existing ancestor and append the rest; a dangling symlink is
 * followed by hand, because writing through it creates its target.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';

export interface PathFs {
  realpathSync(p: string): string;
  lstatSync(p: string): { isSymbolicLink(): boolean };
  readlinkSync(p: string): string;
}

export const realFs: PathFs = {
  realpathSync: (p) => nodeFs.realpathSync.native(p),
  lstatSync: (p) => nodeFs.lstatSync(p),
  readlinkSync: (p) => nodeFs.readlinkSync(p, 'utf8'),
};

const MAX_LINKS = 40;

/** The real absolute path `abs` refers to (or would refer to once created). */
export function resolveReal(abs: string, fs: PathFs = realFs, hops = 0): string {
  let current = path.resolve(abs);
  const tail: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync(current);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch {
      // Does not exist (or unreadable): a dangling symlink is followed, anything else walks up.
    }
    let isLink = false;
    try {
      isLink = fs.lstatSync(current).isSymbolicLink();
    } catch {
      isLink = false;
    }
    let link: string | null = null;
    if (isLink && hops < MAX_LINKS) {
      try {
        link = fs.readlinkSync(current);
      } catch {
        link = null; // unreadable link: judged by its own path (the lexical check still applies)
      }
    }
    if (link !== null) {
      const target = path.resolve(path.dirname(current), link);
      const rest = tail.length ? path.join(target, ...[...tail].reverse()) : target;
      return resolveReal(rest, fs, hops + 1);
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
