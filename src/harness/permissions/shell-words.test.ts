import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { analyzeShell } from './shell-analysis.js';

/** Words whose static value is easy to get wrong: escapes, quotes, a lone `$`, braces, tildes, glob characters. */
const WORDS = [
  'a\\ b', 'a#b', "a'b'c", 'a"b"c', '"a\\"b"', "'a\\'", 'a\\\\b', '\\#x', 'x\\;y', 'a=b', '--x=y', '-e.', 'a{b', 'a}b', '{a}', '\\{a,b\\}',
  'x\\\'y', '"$"', '"a$"b', "'\\n'", 'a\\tb', 'x~', '"a"\'b\'', '"a\\\nb"', 'a!b', "a\\'b", '"\\$x"', '"\\`x"', 'a\\`b', '%', '^x', 'a,b',
  '-', '{}', 'x{}', '-i{}', '\\\\', '"\\\\"', "'\\\\'", '""', "''", 'a""b', 'x\\ ', '[[', ']]', 'a[[:alpha:]]b', 'a[b', 'a]', '=', 'x\\*',
  '"x*"', "'x*'", 'x\\?', '\\[a]', 'é',
];

describe('static word values', () => {
  it('are exactly the words bash passes to the command (or the command is refused as unanalyzable)', () => {
    const script = WORDS.map((w) => `printf '%s\\0' ${w}; printf '\\1'`).join('\n');
    const fromBash = execFileSync('bash', ['-c', `set -f\n${script}`], { encoding: 'utf8' }).split('\x01').slice(0, -1).map((chunk) => chunk.split('\0').slice(0, -1));
    const diffs: string[] = [];
    WORDS.forEach((w, i) => {
      const a = analyzeShell(`printf x ${w}`);
      if (!a.ok) return; // refused: nothing is judged on a guess
      const values = a.commands[0]?.argv.slice(2).map((x) => x.value) ?? [];
      if (values.includes(null)) return; // dynamic: judged as unknown
      if (JSON.stringify(values) !== JSON.stringify(fromBash[i])) diffs.push(`${w}: bash ${JSON.stringify(fromBash[i])}, ours ${JSON.stringify(values)}`);
    });
    expect(diffs).toEqual([]);
  });

  it('treats a tilde prefix other than ~ (~-, ~+, ~user) as computed at run time', () => {
    for (const w of ['~-/x', '~+', '~root/.ssh']) {
      const a = analyzeShell(`cat ${w}`);
      expect(a.ok && a.commands[0]?.argv[1]?.value, w).toBeNull();
    }
  });
});
