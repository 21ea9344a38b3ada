/**
 * Expands a shell glob word against the file system, so the path guard sees
 * the files bash would pass (`cat .env*` reads `.env.local`,
 * `cat l[[:alpha:]]nk/../x` goes through the symlink `link`). Each path
 * segment is matched with picomatch, which implements bash's bracket
 * expressions including POSIX classes (`[[:alpha:]]`), `[!...]` and escapes;
 * its extensions that bash -c does not have (extglob, braces, globstar,
 * leading `!` negation) are switched off. What picomatch cannot reproduce
 * faithfully (equivalence classes `[[=a=]]`, collating symbols `[[.a.]]`) is
 * refused: the caller treats null as "unknown" and asks.
 * Over-approximates on purpose: hidden files match `*` (as with dotglob),
 * and more than MAX_GLOB_MATCHES results is "unknown" too.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';

export const MAX_GLOB_MATCHES = 200;

export type ReadDir = (dir: string) => string[];
const realReadDir: ReadDir = (dir) => nodeFs.readdirSync(dir);

const MATCH_OPTIONS: picomatch.PicomatchOptions = {
  dot: true, // over-approximate: a hidden file may be matched by bash with dotglob
  nobrace: true,
  noextglob: true,
  noglobstar: true,
  nonegate: true,
  posix: true,
  strictSlashes: true,
};

/** Absolute matches, or null when there are too many or the pattern cannot be expanded faithfully. No match returns []. */
export function expandGlob(pattern: string, cwd: string, readDir: ReadDir = realReadDir): string[] | null {
  if (/\[[^\]/]*\[[=.]/.test(pattern)) return null; // equivalence classes and collating symbols
  const abs = path.isAbsolute(pattern) ? pattern : `${cwd.endsWith('/') ? cwd : cwd + '/'}${pattern}`;
  const segments = abs.split('/').filter(Boolean);
  let current: string[] = ['/'];
  for (const seg of segments) {
    const next: string[] = [];
    if (!isGlob(seg)) {
      const literal = unescape(seg);
      for (const dir of current) next.push(join(dir, literal));
    } else {
      let matcher: (name: string) => boolean;
      let relaxed: (name: string) => boolean;
      try {
        matcher = picomatch(seg, MATCH_OPTIONS);
        // picomatch's classes are ASCII; bash's follow the locale (`[[:alpha:]]` matches `é`). For a
        // name with other characters every bracket expression may match: over-approximate with `*`.
        relaxed = picomatch(seg.replace(/\[(?:\[:[a-z]+:\]|[^\]])*\]|\?/g, '*'), MATCH_OPTIONS);
      } catch {
        return null;
      }
      for (const dir of current) {
        let names: string[];
        try {
          names = readDir(dir);
        } catch {
          continue;
        }
        for (const n of names) if (/^[\x20-\x7e]*$/.test(n) ? matcher(n) : relaxed(n)) next.push(join(dir, n));
        if (next.length > MAX_GLOB_MATCHES) return null;
      }
    }
    current = next;
    if (current.length === 0) return [];
  }
  return current;
}

/** Joined without normalizing: a `..` segment stays for the path guard to resolve physically. */
function join(dir: string, name: string): string {
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}

/** An unescaped glob metacharacter is present. */
function isGlob(seg: string): boolean {
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}

function unescape(seg: string): string {
  return seg.replace(/\\(.)/g, '$1');
}
