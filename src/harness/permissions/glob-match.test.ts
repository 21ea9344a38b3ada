import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { segmentMatcher } from './glob-match.js';

/** Patterns whose reading differs between glob libraries and bash: escapes, brackets, classes, ranges. */
const PATTERNS = [
  'l[\\i]nk', 'l[]i]nk', 'l[!]]nk', 'l[^x]nk', 'l[[:alpha:]]nk', 'l[a-j]nk', 'l[j-a]nk', 'l[!j-a]nk', 'l[[]nk', 'l[\\]]nk', 'l[i-]nk', 'l[-i]nk',
  'l[!-]nk', 'l\\ink', 'li\\nk', 'l?\\nk', 'l?nk', 'l*', '*', '[l]ink', 'l[[:alpha:][:digit:]]nk', 'l[ink', 'l[i]n[k', 'l[a-z]nk', 'l[A-Z]nk',
  'l[!a-h]nk', 'l[\\!]nk', 'l[i\\]nk', 'l[^]nk', 'l[]nk', 'l[!]nk', '\\link', 'l[[:alpha:]nk', 'l[]-j]nk', 'l[%-j]nk', 'l[[:lower:]]nk',
  'l[[:punct:]]nk', 'l[][]nk', 'li[n]k', 'lin[[:alnum:]_]', 'l[\\a-\\j]nk', 'l[[:space:]]nk', 'l\\*', 'l\\?nk', '*k', 'l**k', '\\', 'l[\\-]nk',
];
const NAMES = ['link', 'l]nk', 'l!nk', 'l[nk', 'l-nk', 'l\\nk', 'lInk', 'l^nk', 'l.nk', 'l:nk', 'l nk', 'l*', 'l?nk', 'lnk', 'l%nk', '\\'];

/** bash's own answer for every pattern x name, in one bash process. */
function bashMatches(): boolean[] {
  const script = 'while IFS= read -r -d "" p && IFS= read -r -d "" n; do [[ $n == $p ]] && printf 1 || printf 0; done';
  const input = PATTERNS.flatMap((p) => NAMES.map((n) => `${p}\0${n}\0`)).join('');
  return [...execFileSync('bash', ['-c', script], { input, encoding: 'utf8' })].map((c) => c === '1');
}

describe('glob segments read as bash reads them', () => {
  it('matches exactly the names bash matches, for escapes, brackets, classes and ranges', () => {
    const expected = bashMatches();
    const diffs: string[] = [];
    let k = 0;
    for (const p of PATTERNS) {
      const m = segmentMatcher(p);
      for (const n of NAMES) {
        const ours = m === null ? null : m.strict.test(n);
        if (ours !== expected[k]) diffs.push(`${p} vs ${n}: bash ${expected[k]}, ours ${ours}`);
        k++;
      }
    }
    expect(diffs).toEqual([]);
  });

  it('refuses what depends on the locale, and relaxes brackets for names outside ASCII', () => {
    expect(segmentMatcher('l[[=i=]]nk')).toBeNull();
    expect(segmentMatcher('l[[.i.]]nk')).toBeNull();
    expect(segmentMatcher('l[[:nope:]]nk')).toBeNull();
    expect(segmentMatcher('l[[:alpha:]]nk')?.relaxed.test('lénk')).toBe(true);
  });
});
