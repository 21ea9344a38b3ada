/**
 * Expands a shell glob word against the file system, so the path guard sees
 * the files bash would pass (`cat .env*` reads `.env.local`). Over-approximates
 * on purpose: hidden files match `*` (as with dotglob), and more than
 * MAX_MATCHES results means "unknown" (the caller asks).
 * The pattern is one already-parsed word; turning a segment into a RegExp here
 * is matching file names, not judging shell syntax.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';

export const MAX_GLOB_MATCHES = 200;

export type ReadDir = (dir: string) => string[];
const realReadDir: ReadDir = (dir) => nodeFs.readdirSync(dir);

/** Absolute matches, or null when there are too many to judge. No match returns []. */
export function expandGlob(pattern: string, cwd: string, readDir: ReadDir = realReadDir): string[] | null {
  const abs = path.resolve(cwd, pattern);
  const segments = abs.split(path.sep).filter(Boolean);
  let current: string[] = [path.parse(abs).root];
  for (const seg of segments) {
    const next: string[] = [];
    if (!isGlob(seg)) {
      for (const dir of current) next.push(path.join(dir, seg));
    } else {
      const re = segmentRegExp(seg);
      for (const dir of current) {
        let names: string[];
        try {
          names = readDir(dir);
        } catch {
          continue;
        }
        for (const n of names) if (re.test(n)) next.push(path.join(dir, n));
        if (next.length > MAX_GLOB_MATCHES) return null;
      }
    }
    current = next;
    if (current.length === 0) return [];
  }
  return current;
}

function isGlob(seg: string): boolean {
  return seg.includes('*') || seg.includes('?') || seg.includes('[');
}

function segmentRegExp(seg: string): RegExp {
  let re = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i] as string;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      let body = seg.slice(i + 1, close);
      if (body.startsWith('!') || body.startsWith('^')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}
