/**
 * Expands a shell glob word against the file system, so the path guard sees
 * the files bash would pass (`cat .env*` reads `.env.local`,
 * `cat l[[:alpha:]]nk/../x` goes through the symlink `link`). Each path
 * segment is matched with bash's own reading of the pattern (glob-match.ts:
 * escapes, brackets, POSIX classes); what that cannot reproduce faithfully
 * (equivalence classes `[[=a=]]`, collating symbols `[[.a.]]`) is refused:
 * the caller treats null as "unknown" and asks. Shell options that change
 * globbing (`shopt -s globstar nocaseglob extglob`) are the caller's: it
 * does not expand at all then.
 * Over-approximates on purpose: hidden files match `*` (as with dotglob),
 * and more than MAX_GLOB_MATCHES results is "unknown" too.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { isGlobSegment, segmentMatcher } from './glob-match.js';

export const MAX_GLOB_MATCHES = 2000;

export type ReadDir = (dir: string) => string[];
const realReadDir: ReadDir = (dir) => nodeFs.readdirSync(dir);

/** Absolute matches, or null when there are too many or the pattern cannot be expanded faithfully. No match returns []. */
export function expandGlob(pattern: string, cwd: string, readDir: ReadDir = realReadDir): string[] | null {
  const abs = path.isAbsolute(pattern) ? pattern : `${cwd.endsWith('/') ? cwd : cwd + '/'}${pattern}`;
  const segments = abs.split('/').filter(Boolean);
  let current: string[] = ['/'];
  for (const seg of segments) {
    const next: string[] = [];
    if (!isGlobSegment(seg)) {
      const literal = unescape(seg);
      for (const dir of current) next.push(join(dir, literal));
    } else {
      let m: ReturnType<typeof segmentMatcher>;
      try {
        m = segmentMatcher(seg);
      } catch {
        m = null; // a pattern the translation cannot express: unknown, as for equivalence classes
      }
      if (m === null) return null;
      for (const dir of current) {
        let names: string[];
        try {
          names = readDir(dir);
        } catch {
          continue;
        }
        for (const n of names) if ((/^[\x20-\x7e]*$/.test(n) ? m.strict : m.relaxed).test(n)) next.push(join(dir, n));
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

function unescape(seg: string): string {
  return seg.replace(/\\(.)/g, '$1');
}
