/**
 * What one simple command does, judged from its parsed words: whether it is
 * read-only (and if not, the real reason, naming the option or action), the
 * files it reads and writes (every operand of every command, so the path
 * guard judges them in every mode), the directories it runs in, and the
 * constructs it brings (env -S, git -c core.fsmonitor=...). Computed once per
 * simple command by the shell analysis and cached with it.
 */
import type { PathAccess, TreeRead } from './types.js';
import type { ShellFlag, SimpleCommand } from './shell-types.js';
import type { ShellWord } from './shell-words.js';
import { allowListName, baseName, unwrapCommand } from './command-words.js';
import { firstUnsafe, parseArgs, type ArgValue, type ParsedArgs } from './option-parse.js';
import { FILE_TABLES } from './specs-files.js';
import { PURE_COMMANDS, PURE_TABLES } from './specs-tools.js';
import { WRITERS } from './specs-writers.js';
import { judgeGit } from './command-git.js';
import { docker, npm } from './command-tools.js';
import { dd, sed, writer } from './command-writers.js';
import { find } from './command-find.js';
import { opaque, wordPaths } from './command-opaque.js';
import { RUNS_VALUE, access, type CommandJudgement, type Draft } from './command-draft.js';
import { isRuleOn } from './rule-switches.js';

// The judges' shared pieces live in command-draft.ts and command-opaque.ts, so the per-command judges need not import this file.
export { opaque, wordPaths } from './command-opaque.js';
export { RUNS_VALUE, access, type CommandJudgement, type Draft } from './command-draft.js';

const READ_ONLY_WRAPPERS: ReadonlySet<string> = new Set(['time', 'nice', 'timeout', 'stdbuf', 'command', 'builtin', 'xargs', 'env']);
/**
 * Built-ins that only change the (fresh) shell they run in: read-only. What they evaluate is judged
 * elsewhere (`let`, `read 'a[$(x)]'`: shell-evaluated.ts; `shopt` globbing: call-view.ts).
 */
const SHELL_STATE: ReadonlySet<string> = new Set([
  'cd', 'pushd', 'popd', 'export', 'declare', 'typeset', 'local', 'readonly', 'unset', 'set', 'shopt', 'read', 'mapfile', 'readarray',
  'getopts', 'shift', 'let', 'wait',
]);

const memo = new WeakMap<object, CommandJudgement>();

/** judgeCommand, once per parsed simple command (analyses are cached and immutable). */
export function judged(cmd: SimpleCommand): CommandJudgement {
  let j = memo.get(cmd);
  if (j === undefined) {
    j = judgeCommand(cmd);
    memo.set(cmd, j);
  }
  return j;
}

export function judgeCommand(cmd: Pick<SimpleCommand, 'argv'>, depth = 0): CommandJudgement {
  const u = unwrapCommand(cmd);
  const d: Draft = { notReadOnly: u.issue, accesses: [], cwds: [...u.cwds], flags: [...u.flags], gitDirs: [], scripts: [], linkTargets: [], unseenCode: null };
  const badWrapper = u.wrappers.find((w) => !READ_ONLY_WRAPPERS.has(w));
  if (badWrapper) d.notReadOnly ??= `\`${badWrapper}\` is not on the read-only list`;
  for (const r of u.reads) d.accesses.push(access(r, 'read', `\`${u.wrappers.join(' ')}\``));
  const base = baseName(u.argv[0]);
  if (base === null) {
    d.notReadOnly ??= `\`${u.argv[0]?.text ?? ''}\` is not a static command name`;
    return d;
  }
  const name = allowListName(u.argv[0]);
  const args = u.argv.slice(1);
  if (name === null) {
    d.notReadOnly ??= `\`${u.argv[0]?.text}\` is not a system command (a script or program path)`;
    opaque(base, args, d);
    return d;
  }
  judgeNamed(name, args, d, depth);
  // Operands that arrive on stdin through xargs are unknown: judged like a path computed at run time.
  if (u.stdinOperands && isRuleOn('operand_paths')) {
    const kind = d.accesses.some((a) => a.access !== 'read') || d.notReadOnly !== null ? 'any' : 'read';
    d.accesses.push({ path: null, access: kind, via: `\`xargs ${name}\`` });
  }
  return d;
}

function judgeNamed(name: string, args: readonly ShellWord[], d: Draft, depth: number): void {
  // `env` with no command prints the environment (its options were judged as a wrapper's); `command -v` looks a name up.
  if (PURE_COMMANDS.has(name) || name === 'env' || name === 'command' || (SHELL_STATE.has(name) && name !== 'cd' && name !== 'pushd')) return;
  if (name === 'cd' || name === 'pushd') {
    const target = args.find((a) => a.value === null || !a.value.startsWith('-'));
    // A glob target is whatever directory it matches when bash runs: unknown.
    d.cwds.push(target === undefined ? '~' : target.value === '-' || (target.glob && isRuleOn('working_dirs')) ? null : target.value);
    return;
  }
  const fileTable = Object.hasOwn(FILE_TABLES, name) ? FILE_TABLES[name] : undefined;
  if (fileTable) return fileReader(name, parseArgs(name, fileTable, args), args, d);
  if (Object.hasOwn(PURE_TABLES, name)) return pureWithOptions(name, args, d);
  if (name === 'egrep' || name === 'fgrep') return fileReader('grep', parseArgs(name, FILE_TABLES.grep!, args), args, d);
  if (name === 'find') return find(args, d, depth, judgeCommand);
  if (name === 'git') return judgeGit(args, d);
  if (name === 'npm') return npm(args, d);
  if (name === 'docker') return docker(args, d);
  if (name === 'sed') return sed(args, d);
  if (name === 'dd') return dd(args, d);
  if (Object.hasOwn(WRITERS, name)) return writer(name, args, d);
  d.notReadOnly ??= `\`${name}\` is not on the read-only list`;
  opaque(name, args, d);
}

/** A read-only-list command with file operands. */
function fileReader(name: string, parsed: ParsedArgs, args: readonly ShellWord[], d: Draft): void {
  const via = `\`${name}\``;
  if (!parsed.ok) {
    d.notReadOnly ??= parsed.reason;
    // The option is unknown, so what its value or the operands mean is too: judge every word as possibly written.
    for (const a of args) for (const p of wordPaths(a)) d.accesses.push(access(p, 'any', via));
    return;
  }
  if (isRuleOn('option_tables')) {
    d.notReadOnly ??= firstUnsafe(name, parsed);
    for (const o of parsed.options) if (RUNS_VALUE.has(`${name} ${o.spec.name}`)) d.flags.push({ construct: 'eval_like', detail: `${name} ${o.spec.name} runs the program it names` });
  }
  for (const o of parsed.options) {
    if (!o.value) continue;
    if (o.spec.effect === 'read') d.accesses.push(access(o.value, 'read', `\`${name} ${o.spec.name}\``));
    if (o.spec.effect === 'write') d.accesses.push(access(o.value, 'write', `\`${name} ${o.spec.name}\``));
  }
  let files = parsed.operands.filter((o) => o.value !== '-');
  const has = (...n: string[]) => parsed.options.some((o) => n.includes(o.spec.name));
  if ((name === 'grep' || name === 'rg') && !has('-e', '--regexp', '-f', '--file') && !(name === 'rg' && has('--files', '--type-list'))) files = files.slice(1);
  if (name === 'jq') {
    if (!has('-f', '--from-file')) {
      const filter = files[0]?.value ?? '';
      if (/\b(import|include)\b/.test(filter)) d.notReadOnly ??= '`jq` with a program that imports modules or data files';
      files = files.slice(1);
    }
  }
  if (name === 'tr') files = [];
  if (name === 'uniq' && files.length > 1) {
    d.accesses.push(access(files[1] as ArgValue, 'write', '`uniq` (its second operand is the output file)'));
    d.notReadOnly ??= '`uniq IN OUT` writes OUT';
    files = files.slice(0, 1);
  }
  const recursive = name !== 'grep' || has('-r', '-R', '--recursive', '--dereference-recursive') || parsed.options.some((o) => (o.spec.name === '-d' || o.spec.name === '--directories') && o.value?.value === 'recurse');
  const tree = treeOf(name, recursive, has);
  for (const f of files) d.accesses.push(access(f, 'read', via, tree));
  if (files.length === 0 && (name === 'ls' || name === 'du' || name === 'rg' || (name === 'grep' && recursive))) d.accesses.push({ path: '.', access: 'read', via, ...(tree && isRuleOn('tree_reads') ? { tree } : {}) });
}

/** How a read-only command reads a directory operand: the files under it (grep -r, rg, diff -r), following links inside or not. */
function treeOf(name: string, recursive: boolean, has: (...n: string[]) => boolean): TreeRead | undefined {
  if ((name === 'grep' || name === 'egrep' || name === 'fgrep') && recursive) return { mode: has('-R', '--dereference-recursive') ? 'follow' : 'walk' };
  if (name === 'rg') return { mode: has('-L', '--follow') ? 'follow' : 'walk' };
  // diff -r follows symlinks it meets unless --no-dereference.
  if (name === 'diff' && has('-r', '--recursive')) return { mode: has('--no-dereference') ? 'walk' : 'follow' };
  return undefined;
}

function pureWithOptions(name: string, args: readonly ShellWord[], d: Draft): void {
  const parsed = parseArgs(name, PURE_TABLES[name]!, args);
  if (!parsed.ok || (name === 'node' && parsed.operands.length > 0)) {
    d.notReadOnly ??= parsed.ok ? '`node` with a script runs it' : parsed.reason;
    // Anything beyond `node --version` runs code whose file effects cannot be seen.
    if (name === 'node') opaque(name, args, d);
    return;
  }
  if (isRuleOn('option_tables')) d.notReadOnly ??= firstUnsafe(name, parsed);
  for (const o of parsed.options) if (o.value && o.spec.effect === 'read') d.accesses.push(access(o.value, 'read', `\`${name} ${o.spec.name}\``));
  if (name === 'date') {
    const setter = parsed.operands.find((o) => o.value === null || !o.value.startsWith('+'));
    if (setter) d.notReadOnly ??= '`date` with an operand that is not a +FORMAT sets the system clock';
  } else if (parsed.operands.length > 0) d.notReadOnly ??= `\`${name}\` with operands ${name === 'hostname' ? 'sets the host name' : 'runs a program'}`;
}
