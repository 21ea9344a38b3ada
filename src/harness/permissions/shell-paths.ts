/**
 * The files a parsed bash command touches, for the path guard: redirection
 * targets (writes and reads), the file operands of read-only commands (so
 * `cat ~/.ssh/id_rsa` is judged like `read ~/.ssh/id_rsa`, seed §8.6), and the
 * directories the command may change into (`cd x`, `git -C x`), against which
 * relative paths are also resolved. Operands of other commands are not
 * guessed: those commands are not read-only and go to ask by default.
 */
import type { ShellAnalysis, SimpleCommand } from './shell-analysis.js';
import type { PathAccess } from './types.js';
import { allowListName, unwrapCommand } from './command-words.js';
import { READ_ONLY_COMMANDS, gitSubcommand } from './read-only-specs.js';
import type { ShellWord } from './shell-words.js';

export interface ShellPaths {
  readonly accesses: readonly PathAccess[];
  /** Extra working directories (null = not static). Relative paths are judged against each and the workspace. */
  readonly cwds: readonly (string | null)[];
}

const GREP_LIKE = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag']);
/** grep/rg flags whose value is the next word (a pattern, a count, a glob), not a file. */
const GREP_VALUED = new Set(['-e', '-f', '-m', '-A', '-B', '-C', '-g', '-t', '-T', '-d', '-D', '--regexp', '--file', '--max-count', '--glob', '--type', '--type-not', '--context', '--after-context', '--before-context']);

export function shellPaths(analysis: Extract<ShellAnalysis, { ok: true }>): ShellPaths {
  const accesses: PathAccess[] = [];
  const cwds: (string | null)[] = [];
  for (const r of analysis.redirects) {
    if (r.access === 'write' || r.access === 'read') accesses.push({ path: r.target?.value ?? null, access: r.access, glob: r.target?.glob ?? false });
  }
  for (const cmd of analysis.commands) commandPaths(cmd, accesses, cwds);
  return { accesses, cwds };
}

function commandPaths(cmd: SimpleCommand, accesses: PathAccess[], cwds: (string | null)[]): void {
  const u = unwrapCommand(cmd);
  const name = allowListName(u.argv[0]);
  if (name === null) return;
  const args = u.argv.slice(1);
  if (name === 'cd' || name === 'pushd') {
    const target = args.find((a) => a.value === null || !a.value.startsWith('-'));
    cwds.push(target === undefined ? '~' : target.value === '-' ? null : target.value);
    return;
  }
  if (name === 'git') {
    const g = gitSubcommand(args);
    if (g?.dir) {
      cwds.push(g.dir.value);
      accesses.push({ path: g.dir.value, access: 'read' });
    }
    return;
  }
  const spec = Object.hasOwn(READ_ONLY_COMMANDS, name) ? READ_ONLY_COMMANDS[name] : undefined;
  if (!spec?.pathOperands) return;
  const files = fileOperands(name, args);
  // Operands arriving through xargs are unknown.
  if (u.wrappers.includes('xargs')) files.push({ value: null, glob: false });
  if (files.length === 0 && spec.readsCwd) files.push({ value: '.', glob: false });
  for (const f of files) accesses.push({ path: f.value, access: 'read', glob: f.glob });
}

function fileOperands(name: string, args: readonly ShellWord[]): { value: string | null; glob: boolean }[] {
  const out: { value: string | null; glob: boolean }[] = [];
  let patternSeen = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]?.value ?? null;
    if (!ended && v === '--') {
      ended = true;
      continue;
    }
    if (!ended && v !== null && v.startsWith('-') && v !== '-') {
      if (GREP_LIKE.has(name)) {
        if (GREP_VALUED.has(v)) i++;
        if (v === '-e' || v === '-f' || v === '--regexp' || v === '--file' || v.startsWith('--regexp=') || v.startsWith('--file=')) patternSeen = true;
      }
      // find's expression starts at its first flag: nothing after it is a start path.
      if (name === 'find') break;
      continue;
    }
    if (name === 'find' && (v === '(' || v === '!')) break;
    if (GREP_LIKE.has(name) && !patternSeen) {
      patternSeen = true; // the first operand is the pattern
      continue;
    }
    if (v === '-') continue; // stdin
    out.push({ value: v, glob: args[i]?.glob ?? false });
  }
  return out;
}
