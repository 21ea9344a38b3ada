/**
 * What a failed `files:` check saw, so the reader need not rerun with
 * --keep-workspaces: for `equals`, the first line that differs (expected vs
 * actual); for the other checks, the file's text (its start, when long).
 */
import { plural } from '../report/plural.js';

/** Characters of a file quoted after a failed check. */
const SHOWN = 300;

const quote = (text: string, max = SHOWN) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text) + (text.length > max ? ` (${text.length} chars)` : '');

/** `first difference at line 2: expected "b", got "c"`, or the file's text. */
export function fileMismatch(expected: string | null, actual: string): string {
  if (expected === null) return `file is: ${quote(actual)}`;
  const [want, got] = [expected.split('\n'), actual.split('\n')];
  const at = want.findIndex((line, i) => line !== got[i]);
  const i = at === -1 ? want.length : at;
  if (i >= got.length) return `first difference at line ${i + 1}: expected ${quote(want[i] ?? '', 120)}, the file ends (${plural(got.length, 'line')})`;
  if (i >= want.length) return `first difference at line ${i + 1}: expected the end, got ${quote(got[i] ?? '', 120)} (${plural(got.length, 'line')})`;
  return `first difference at line ${i + 1}: expected ${quote(want[i] ?? '', 120)}, got ${quote(got[i] ?? '', 120)}`;
}
