/**
 * The read-only allow list for bash (seed §6.2, §8.2 step 10). A command is on
 * it when it never changes files, processes or remote state. Each entry says
 * whether its operands are paths it reads (the chain sends those through the
 * path guard) and, where needed, which flags or sub-commands keep it read-only.
 * Headless runs deny everything that falls through to ask, so this list must
 * cover what exploring a repository needs (seed §8.2 "side effect").
 */
import type { ShellWord } from './shell-words.js';

type Args = readonly ShellWord[];

export interface ReadOnlySpec {
  /** Operands (non-flag words) are files this command reads. */
  readonly pathOperands: boolean;
  /** With no operand, it reads the working directory (`ls`, `grep -r`, `find`). */
  readonly readsCwd?: boolean;
  /** Extra condition on the arguments; false means "not read-only". */
  readonly allow?: (args: Args) => boolean;
}

const vals = (args: Args): (string | null)[] => args.map((a) => a.value);
/** None of the flags appears: long ones exactly or as `--x=v`, one-letter ones also inside a cluster (`-uo`). */
const noFlag = (...bad: string[]) => (args: Args): boolean =>
  vals(args).every((v) => v === null || !bad.some((b) => hasFlag(v, b)));
function hasFlag(word: string, flag: string): boolean {
  if (word === flag || word.startsWith(`${flag}=`)) return true;
  const short = flag.length === 2 && flag.startsWith('-');
  return short && word.startsWith('-') && !word.startsWith('--') && word.slice(1).includes(flag.slice(1));
}
const operands = (args: Args): Args => args.filter((a) => a.value === null || !a.value.startsWith('-') || a.value === '-');
const atMostOperands = (n: number) => (args: Args): boolean => operands(args).length <= n;
const noArgs = (args: Args): boolean => args.length === 0;
const onlyArgs = (...ok: string[]) => (args: Args): boolean => vals(args).every((v) => v !== null && ok.includes(v));

const FILE: ReadOnlySpec = { pathOperands: true };
const CWD: ReadOnlySpec = { pathOperands: true, readsCwd: true };
const PURE: ReadOnlySpec = { pathOperands: false };

/** find actions that run commands or write files. */
const FIND_UNSAFE = ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'];

export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlySpec>> = {
  // Reading and listing files.
  ls: CWD, cat: FILE, head: FILE, tail: { pathOperands: true, allow: noFlag('-f', '-F', '--follow') },
  wc: FILE, tac: FILE, nl: FILE, rev: FILE, fold: FILE, fmt: FILE, paste: FILE, comm: FILE, join: FILE,
  expand: FILE, unexpand: FILE, column: FILE, strings: FILE, od: FILE, hexdump: FILE,
  xxd: { pathOperands: true, allow: (a) => atMostOperands(1)(a) && noFlag('-r')(a) },
  // tree -o writes its listing, -R with -H writes HTML files; file -C compiles a magic file.
  stat: FILE, file: { pathOperands: true, allow: noFlag('-C', '--compile') }, du: CWD, df: PURE,
  tree: { pathOperands: true, readsCwd: true, allow: noFlag('-o', '-R') }, realpath: FILE, readlink: FILE,
  md5sum: FILE, sha1sum: FILE, sha256sum: FILE, sha512sum: FILE, cksum: FILE, b2sum: FILE,
  diff: FILE, cmp: FILE, jq: FILE,
  // --compress-program runs a program.
  sort: { pathOperands: true, allow: noFlag('-o', '--output', '--compress-program') },
  // `uniq IN OUT` writes OUT.
  uniq: { pathOperands: true, allow: atMostOperands(1) },
  cut: FILE, tr: PURE,
  // Searching.
  grep: CWD, egrep: CWD, fgrep: CWD, ag: CWD,
  // rg --pre runs a preprocessor program on every file.
  rg: { pathOperands: true, readsCwd: true, allow: noFlag('--pre') },
  find: { pathOperands: true, readsCwd: true, allow: noFlag(...FIND_UNSAFE) },
  // Shell state and information; their operands are not files.
  echo: PURE, printf: PURE, pwd: PURE, true: PURE, false: PURE, test: PURE, '[': PURE, ':': PURE,
  which: PURE, whereis: PURE, type: PURE, basename: PURE, dirname: PURE, seq: PURE, expr: PURE,
  whoami: PURE, id: PURE, uname: PURE, printenv: PURE, sleep: PURE, nproc: PURE, arch: PURE,
  date: { pathOperands: false, allow: noFlag('-s', '--set') },
  hostname: { pathOperands: false, allow: noArgs },
  env: { pathOperands: false, allow: onlyArgs('-0', '--null') },
  command: { pathOperands: false, allow: (a) => vals(a).some((v) => v === '-v' || v === '-V') },
  // Shell-state built-ins (each bash call runs in its own shell); dangerous names are flagged by the analysis.
  cd: { pathOperands: true }, export: PURE, declare: PURE, typeset: PURE, local: PURE, readonly: PURE, unset: PURE,
  // Multi-command tools: judged by their sub-command.
  git: { pathOperands: false, allow: (a) => isReadOnlyGit(a) },
  npm: { pathOperands: false, allow: (a) => isReadOnlyNpm(a) },
  docker: { pathOperands: false, allow: (a) => isReadOnlyDocker(a) },
  go: { pathOperands: false, allow: (a) => subIs(a, ['version', 'list', 'doc']) || (subIs(a, ['env']) && noFlag('-w', '-u')(a)) },
  node: { pathOperands: false, allow: onlyArgs('--version', '-v') },
  python: { pathOperands: false, allow: onlyArgs('--version', '-V') },
  python3: { pathOperands: false, allow: onlyArgs('--version', '-V') },
  cargo: { pathOperands: false, allow: onlyArgs('--version', '-V') },
  rustc: { pathOperands: false, allow: onlyArgs('--version', '-V') },
};

function subIs(args: Args, subs: readonly string[]): boolean {
  const first = args[0]?.value;
  return first !== undefined && first !== null && subs.includes(first);
}

/** Global git options allowed before the sub-command. `-c`, `--git-dir`, `--exec-path` can run code: not allowed. */
const GIT_GLOBAL_OK = new Set(['--no-pager', '-P', '--no-optional-locks', '--no-replace-objects', '--literal-pathspecs']);
const GIT_READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'cat-file', 'blame', 'shortlog', 'describe',
  'grep', 'show-ref', 'for-each-ref', 'merge-base', 'name-rev', 'count-objects', 'diff-tree', 'diff-files',
  'diff-index', 'whatchanged', 'var', 'version', 'help', 'check-ignore', 'rev-list', 'show-branch', 'cherry',
]);
const GIT_BRANCH_WRITES = ['-d', '-D', '-m', '-M', '-c', '-C', '-f', '-u', '--delete', '--move', '--copy', '--force', '--set-upstream-to', '--unset-upstream', '--edit-description', '--track', '--no-track'];

/** `git -C dir` is allowed; the chain resolves later relative paths against it via the `cd`-style base. */
export function gitSubcommand(args: Args): { sub: string | null; rest: Args; dir: ShellWord | null } | null {
  let i = 0;
  let dir: ShellWord | null = null;
  while (i < args.length) {
    const v = args[i]?.value ?? null;
    if (v === null) return null;
    if (v === '-C') {
      dir = args[i + 1] ?? null;
      i += 2;
      continue;
    }
    if (!v.startsWith('-')) break;
    if (!GIT_GLOBAL_OK.has(v)) return null;
    i++;
  }
  return { sub: args[i]?.value ?? null, rest: args.slice(i + 1), dir };
}

function isReadOnlyGit(args: Args): boolean {
  const g = gitSubcommand(args);
  if (!g || g.sub === null) return g !== null && args.every((a) => a.value === '--version' || a.value === '--help');
  const rest = g.rest;
  // Writing a file or running an external program is not read-only, whatever the sub-command.
  // --no-index compares arbitrary files outside the repository.
  if (!noFlag('--output', '--ext-diff', '--textconv', '--open-files-in-pager', '-O', '--no-index')(rest)) return false;
  if (GIT_READ_ONLY.has(g.sub)) return true;
  switch (g.sub) {
    case 'branch':
      // Listing only: no operand creates a branch, no flag of GIT_BRANCH_WRITES.
      return noFlag(...GIT_BRANCH_WRITES)(rest) && (operands(rest).length === 0 || vals(rest).some((v) => v === '--list' || v === '-l' || v === '--contains' || v === '--merged' || v === '--no-merged' || v === '--points-at'));
    case 'tag':
      return rest.length === 0 || vals(rest).every((v) => v === '-l' || v === '--list' || v === '-n' || (v !== null && !v.startsWith('-') && rest.some((r) => r.value === '-l' || r.value === '--list')));
    case 'remote':
      return rest.length === 0 || onlyArgs('-v', '--verbose')(rest) || subIs(rest, ['get-url']);
    case 'config':
      return vals(rest).some((v) => v === '--get' || v === '--get-all' || v === '--get-regexp' || v === '--list' || v === '-l') && noFlag('--edit', '-e', '--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section')(rest);
    case 'stash':
      return subIs(rest, ['list', 'show']);
    case 'reflog':
      return rest.length === 0 || subIs(rest, ['show']);
    case 'worktree':
      return subIs(rest, ['list']);
    case 'submodule':
      return subIs(rest, ['status']);
    default:
      return false; // push, commit, reset, checkout, clean, fetch, pull, merge, rebase, add, rm, ...
  }
}

const NPM_READ_ONLY = new Set(['ls', 'list', 'll', 'la', 'view', 'info', 'show', 'v', 'outdated', 'search', 'help', 'prefix', 'root', 'explain', 'why', 'query', 'find-dupes']);

function isReadOnlyNpm(args: Args): boolean {
  const sub = args[0]?.value ?? null;
  const rest = args.slice(1);
  if (sub === null) return false;
  if (sub === '--version' || sub === '-v') return args.length === 1;
  if (NPM_READ_ONLY.has(sub)) return true;
  if (sub === 'config' || sub === 'c') return subIs(rest, ['get', 'list', 'ls']);
  if (sub === 'pkg') return subIs(rest, ['get']);
  if (sub === 'audit') return operands(rest).length === 0; // `npm audit fix` writes
  if (sub === 'version') return rest.length === 0 || onlyArgs('--json')(rest); // `npm version patch` writes
  return false; // install, ci, publish, run, test, exec, uninstall, update, link, ...
}

const DOCKER_READ_ONLY = new Set(['ps', 'images', 'inspect', 'logs', 'version', 'info', 'top', 'port', 'diff', 'history', 'search']);
const DOCKER_GROUPS: Readonly<Record<string, readonly string[]>> = {
  image: ['ls', 'list', 'inspect', 'history'],
  container: ['ls', 'list', 'ps', 'inspect', 'logs', 'top', 'port', 'diff'],
  network: ['ls', 'list', 'inspect'],
  volume: ['ls', 'list', 'inspect'],
  system: ['df', 'info'],
  context: ['ls', 'list', 'inspect', 'show'],
};

function isReadOnlyDocker(args: Args): boolean {
  const sub = args[0]?.value ?? null;
  if (sub === null) return false;
  if (sub === '--version' || sub === '-v') return args.length === 1;
  if (DOCKER_READ_ONLY.has(sub)) return sub !== 'logs' || noFlag('-f', '--follow')(args.slice(1));
  if (sub === 'stats') return vals(args).includes('--no-stream');
  const group = DOCKER_GROUPS[sub];
  return group !== undefined && subIs(args.slice(1), group);
}
