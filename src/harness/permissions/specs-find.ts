/**
 * `find` (GNU findutils 4.9): start paths, then an expression of primaries.
 * Primaries are matched exactly (find does not abbreviate); an unknown one
 * makes the call not read-only. Actions that run a command (`-exec`,
 * `-execdir`, `-ok`, `-okdir`) are returned as nested commands with `{}`
 * standing for the files under the start paths, so `find OUT -exec rm {} \;`
 * is judged as `rm OUT` — a write outside the workspace — and its refusal
 * names `-exec rm`. `-delete` writes the start paths; `-fprint*` and `-fls`
 * write their file.
 */
import type { ShellWord } from './shell-words.js';
import { findTree, type FindNode, type FindToken } from './find-expr.js';

/** Primaries and the number of argument words each takes. */
const PRIMARIES: Readonly<Record<string, number>> = {
  // Tests.
  '-name': 1, '-iname': 1, '-path': 1, '-ipath': 1, '-wholename': 1, '-iwholename': 1, '-regex': 1, '-iregex': 1,
  '-lname': 1, '-ilname': 1, '-type': 1, '-xtype': 1, '-size': 1, '-empty': 0, '-perm': 1, '-user': 1, '-group': 1,
  '-uid': 1, '-gid': 1, '-nouser': 0, '-nogroup': 0, '-links': 1, '-inum': 1, '-readable': 0, '-writable': 0,
  '-executable': 0, '-mtime': 1, '-mmin': 1, '-atime': 1, '-amin': 1, '-ctime': 1, '-cmin': 1, '-used': 1,
  '-fstype': 1, '-context': 1, '-true': 0, '-false': 0,
  // Options (positional in GNU find, harmless).
  '-maxdepth': 1, '-mindepth': 1, '-depth': 0, '-d': 0, '-mount': 0, '-xdev': 0, '-noleaf': 0, '-follow': 0,
  '-daystart': 0, '-warn': 0, '-nowarn': 0, '-ignore_readdir_race': 0, '-noignore_readdir_race': 0, '-regextype': 1,
  '-files0-from': 1,
  // Actions that only print.
  '-print': 0, '-print0': 0, '-printf': 1, '-ls': 0, '-prune': 0, '-quit': 0,
  // Operators.
  '-not': 0, '!': 0, '-a': 0, '-and': 0, '-o': 0, '-or': 0, ',': 0, '(': 0, ')': 0,
  '-help': 0, '--help': 0, '-version': 0, '--version': 0,
};
/** Primaries whose argument is a file that find stats (read). */
const REFERENCE_FILES = new Set(['-newer', '-anewer', '-cnewer', '-samefile']);
const WRITES_FILE = new Set(['-fprint', '-fprint0', '-fls']);
const EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const OPERATORS = new Set(['-not', '!', '-a', '-and', '-o', '-or', ',', '(', ')']);

export interface FindParse {
  readonly starts: readonly ShellWord[];
  /** Files find reads as references (`-newer F`). */
  readonly reads: readonly ShellWord[];
  /** Files find writes (`-fprint F`). */
  readonly writes: readonly ShellWord[];
  readonly deletes: boolean;
  /** Commands run by -exec & co., `{}` still in place. */
  readonly execs: readonly { readonly primary: string; readonly argv: readonly ShellWord[] }[];
  /** Set when the expression cannot be judged. */
  readonly error: string | null;
  /** The expression as a tree (execs numbered as in `execs`), null when malformed. */
  readonly tree: FindNode | null;
  /** `-L` or `-follow`: find descends into symlinks (and `-type` sees their targets). */
  readonly follow: boolean;
}

const isExprStart = (v: string | null): boolean => v !== null && (v.startsWith('-') || v === '(' || v === '!' || v === ')' || v === ',');

export function parseFind(args: readonly ShellWord[]): FindParse {
  const starts: ShellWord[] = [];
  const reads: ShellWord[] = [];
  const writes: ShellWord[] = [];
  const execs: { primary: string; argv: ShellWord[] }[] = [];
  const tokens: FindToken[] = [];
  let deletes = false;
  let follow = false;
  let i = 0;
  // Leading options -H -L -P -D debugopts -Olevel (the last of -H/-L/-P wins).
  while (i < args.length) {
    const v = args[i]?.value ?? null;
    if (v === '-L') follow = true;
    if (v === '-P' || v === '-H') follow = false;
    if (v === '-H' || v === '-L' || v === '-P' || (v !== null && /^-O[0-3]$/.test(v))) i++;
    else if (v === '-D') i += 2;
    else break;
  }
  while (i < args.length && !isExprStart(args[i]?.value ?? null)) starts.push(args[i++] as ShellWord);
  const fail = (error: string): FindParse => ({ starts, reads, writes, deletes, execs, error, tree: null, follow });
  while (i < args.length) {
    const w = args[i] as ShellWord;
    const v = w.value;
    if (v === null) return fail(`a \`find\` expression word computed at run time (${w.text})`);
    if (EXEC.has(v)) {
      const argv: ShellWord[] = [];
      i++;
      while (i < args.length && args[i]?.value !== ';' && !(args[i]?.value === '+' && args[i - 1]?.value === '{}')) argv.push(args[i++] as ShellWord);
      if (i >= args.length) return fail(`\`find ${v}\` without its terminating \`;\` or \`+\``);
      if (argv.length === 0) return fail(`\`find ${v}\` without a command`);
      tokens.push({ exec: execs.length });
      execs.push({ primary: v, argv });
      i++;
      continue;
    }
    if (v === '-delete') {
      deletes = true;
      tokens.push({ test: v, arg: null });
      i++;
      continue;
    }
    if (REFERENCE_FILES.has(v) || /^-newer[aBcmt][aBcmt]$/.test(v)) {
      const f = args[i + 1];
      if (f) reads.push(f);
      tokens.push({ test: v, arg: f?.value ?? null });
      i += 2;
      continue;
    }
    if (WRITES_FILE.has(v) || v === '-fprintf') {
      const f = args[i + 1];
      if (f) writes.push(f);
      tokens.push({ test: v, arg: f?.value ?? null });
      i += v === '-fprintf' ? 3 : 2;
      continue;
    }
    const n = PRIMARIES[v];
    if (n === undefined) return fail(`\`find ${v}\` is a primary faultline does not know to be safe`);
    if (v === '-files0-from') return fail('`find -files0-from` reads start paths from a list, which cannot be checked before it runs');
    if (v === '-follow') follow = true;
    tokens.push(OPERATORS.has(v) ? { op: v } : { test: v, arg: n >= 1 ? (args[i + 1]?.value ?? null) : null });
    i += 1 + n;
  }
  return { starts: starts.length > 0 ? starts : [{ text: '.', value: '.', glob: false }], reads, writes, deletes, execs, error: null, tree: findTree(tokens), follow };
}
