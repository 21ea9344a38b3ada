/**
 * One path segment of a bash pattern as a RegExp, with bash's own reading of
 * it (lib/glob/smatch.c, extglob off): `*`, `?`, a backslash quoting the next
 * character (everywhere, also inside brackets), and bracket expressions with
 * `!`/`^` negation, a leading `]` as a member, ranges by code point (bash 5's
 * default `globasciiranges`) and POSIX classes; a `[` without its closing
 * `]` is a literal `[`. Written here rather than borrowed from a glob library
 * because the libraries read escapes their own way (picomatch takes `\n` in
 * `li\nk` for a newline, bash for `n`), and a pattern read differently
 * matches a different file than bash opens.
 *
 * Equivalence classes `[=a=]`, collating symbols `[.a.]` and unknown class
 * names depend on the locale: null (the caller treats the word as unknown).
 */

const CLASSES: Readonly<Record<string, string>> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v', blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f\\x7f', xdigit: '0-9A-Fa-f', word: 'A-Za-z0-9_',
};

const escapeRe = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
/** Outside a bracket: `\-` is not a valid escape in a `u` regex (a word like `--include=*.ts` made it throw). */
const escapeLiteral = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

export interface SegmentMatcher {
  /** bash's match for a name of printable ASCII characters. */
  readonly strict: RegExp;
  /**
   * For other names: every bracket expression and `?` matches any one
   * character, because bash's classes follow the locale (`[[:alpha:]]`
   * matches `é`) and this translation only knows ASCII. Over-approximates.
   */
  readonly relaxed: RegExp;
}

/** The matcher for one segment (no `/` inside), or null when it cannot be read faithfully. */
export function segmentMatcher(seg: string): SegmentMatcher | null {
  let strict = '';
  let relaxed = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i] as string;
    if (c === '\\') {
      // A trailing backslash is itself.
      const lit = i + 1 < seg.length ? (seg[++i] as string) : '\\';
      strict += escapeLiteral(lit);
      relaxed += escapeLiteral(lit);
    } else if (c === '*') {
      strict += '[^]*';
      relaxed += '[^]*';
    } else if (c === '?') {
      strict += '[^]';
      relaxed += '[^]';
    } else if (c === '[') {
      const b = bracket(seg, i);
      if (b === 'refuse') return null;
      if (b === null) {
        strict += '\\[';
        relaxed += '\\[';
      } else {
        strict += b.re;
        relaxed += '[^]';
        i = b.end;
      }
    } else {
      strict += escapeLiteral(c);
      relaxed += escapeLiteral(c);
    }
  }
  return { strict: new RegExp(`^${strict}$`, 'u'), relaxed: new RegExp(`^${relaxed}$`, 'u') };
}

/** The bracket expression starting at `seg[start] === '['`: its RegExp and the index of its `]`; null = no closing `]`. */
function bracket(seg: string, start: number): { re: string; end: number } | null | 'refuse' {
  let j = start + 1;
  let negate = false;
  if (seg[j] === '!' || seg[j] === '^') {
    negate = true;
    j++;
  }
  const members: string[] = [];
  let first = true;
  while (j < seg.length) {
    let c = seg[j] as string;
    if (c === ']' && !first) {
      const set = members.join('');
      // An empty set cannot be written as `[]` in a RegExp: match nothing / anything.
      const re = set === '' ? (negate ? '[^]' : '(?!)') : `[${negate ? '^' : ''}${set}]`;
      return { re, end: j };
    }
    first = false;
    if (c === '[' && (seg[j + 1] === ':' || seg[j + 1] === '=' || seg[j + 1] === '.')) {
      const kind = seg[j + 1] as string;
      const close = seg.indexOf(`${kind}]`, j + 2);
      if (close < 0) {
        members.push('\\[');
        j++;
        continue;
      }
      if (kind !== ':') return 'refuse';
      const cls = CLASSES[seg.slice(j + 2, close)];
      if (cls === undefined) return 'refuse';
      members.push(cls);
      j = close + 2;
      continue;
    }
    if (c === '\\' && j + 1 < seg.length) c = seg[++j] as string;
    // A range `a-z` (a `-` first or last is itself).
    if (seg[j + 1] === '-' && j + 2 < seg.length && seg[j + 2] !== ']') {
      let k = j + 2;
      let hi = seg[k] as string;
      if (hi === '\\' && k + 1 < seg.length) hi = seg[++k] as string;
      if (hi === '[') return 'refuse'; // a class or symbol as a range end: locale territory
      const lo = c.codePointAt(0) as number;
      const up = hi.codePointAt(0) as number;
      // A reversed range matches nothing in bash.
      if (lo <= up) members.push(`${escapeRe(c)}-${escapeRe(hi)}`);
      j = k + 1;
      continue;
    }
    members.push(escapeRe(c));
    j++;
  }
  return null;
}

/** The segment has an unescaped glob character (`*`, `?`, `[`). */
export function isGlobSegment(seg: string): boolean {
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}
