/**
 * Helpers on the words of one parsed simple command: the effective command
 * after wrappers (`sudo`, `env`, `timeout`...) are peeled off, and the closed
 * lists of shells, interpreters and environment variables that change what a
 * command runs. Regexes here only look at single, already-parsed words.
 */
import type { Assignment, ShellFlag, SimpleCommand } from './shell-types.js';
import type { ShellWord } from './shell-words.js';
import { firstUnsafe, parseArgs, type ArgValue } from './option-parse.js';
import { WRAPPER_TABLES } from './specs-tools.js';
import { isRuleOn } from './rule-switches.js';

export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox']);

const INTERPRETERS: ReadonlySet<string> = new Set([
  'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'irb', 'php', 'lua', 'luajit', 'Rscript', 'pwsh', 'powershell',
  'osascript', 'tclsh', 'wish', 'jshell', 'groovy', 'scala', 'julia', 'guile', 'racket', 'expect',
]);

export function isInterpreter(name: string): boolean {
  return INTERPRETERS.has(name) || /^python[0-9.]*$/.test(name) || /^pypy[0-9.]*$/.test(name);
}

/**
 * Variables that change which code a command runs or which files it writes:
 * the loader, shell start-up, interpreter search paths and options, and the
 * configuration sources of the tools on the read-only list (git reads its
 * config from GIT_* and $XDG_CONFIG_HOME/git/config, rg from
 * RIPGREP_CONFIG_PATH, less from LESSOPEN, npm from npm_config_*). A closed
 * table: setting one of these, even for a read-only command, needs approval.
 */
const DANGEROUS_ENV: ReadonlySet<string> = new Set([
  'PATH', 'BASH_ENV', 'ENV', 'IFS', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'HOME', 'CDPATH',
  'GLOBIGNORE', 'BASH_XTRACEFD', 'SHELL', 'TMPDIR', 'XDG_CONFIG_HOME', 'XDG_CONFIG_DIRS', 'XDG_DATA_HOME', 'XDG_CACHE_HOME',
  'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONINSPECT', 'PERL5OPT',
  'PERL5LIB', 'PERLLIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS',
  'SSH_ASKPASS', 'PAGER', 'MANPAGER', 'MANOPT', 'EDITOR', 'VISUAL', 'BROWSER', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY',
  'RIPGREP_CONFIG_PATH', 'DOCKER_CONFIG', 'DOCKER_HOST', 'GCONV_PATH', 'LOCPATH', 'NLSPATH', 'HOSTALIASES', 'GOFLAGS',
  'GOTOOLCHAIN', 'CARGO_HOME', 'RUSTUP_TOOLCHAIN', 'RUSTC_WRAPPER', 'WGETRC', 'CURL_HOME', 'TAR_OPTIONS', 'GREP_OPTIONS',
]);
/**
 * Whole families: every GIT_* variable changes what git reads, runs or writes (GIT_EXTERNAL_DIFF, GIT_TRACE=FILE, GIT_DIR...);
 * NODE_* and PYTHON* hold interpreter options and write targets (NODE_V8_COVERAGE, PYTHONWARNINGS imports a module).
 */
const DANGEROUS_PREFIXES = ['LD_', 'DYLD_', 'BASH_FUNC_', 'GIT_', 'NPM_CONFIG_', 'npm_config_', 'PYTHONMALLOC', 'MALLOC_', 'NODE_', 'PYTHON', 'GLIBC_', 'JQ_'];

export function isDangerousEnvName(name: string): boolean {
  if (!isRuleOn('config_sources')) return false;
  return DANGEROUS_ENV.has(name) || DANGEROUS_PREFIXES.some((p) => name.startsWith(p));
}

/** Command name used for judging: basename of a static first word (`/bin/rm` -> `rm`), null when dynamic. */
export function baseName(word: ShellWord | undefined): string | null {
  if (!word || word.value === null || word.glob) return null;
  const v = word.value;
  const slash = v.lastIndexOf('/');
  return slash >= 0 ? v.slice(slash + 1) : v;
}

const TRUSTED_BIN_DIRS: ReadonlySet<string> = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin']);

/**
 * Name used against allow lists: like baseName, but a path is only trusted in
 * the system bin directories (`./ls` may be a script the model just wrote).
 */
export function allowListName(word: ShellWord | undefined): string | null {
  const base = baseName(word);
  if (base === null || word?.value === null || word === undefined) return null;
  const v = word.value;
  const slash = v.lastIndexOf('/');
  if (slash < 0) return base;
  return TRUSTED_BIN_DIRS.has(v.slice(0, slash)) ? base : null;
}

export interface Unwrapped {
  /** The command that really runs, name first (may be the original argv). */
  readonly argv: readonly ShellWord[];
  /** Wrapper names peeled off, outermost first (`sudo`, `env`, `xargs`...). */
  readonly wrappers: readonly string[];
  /** `env FOO=x cmd` / `sudo FOO=x cmd` assignments. */
  readonly envAssignments: readonly Assignment[];
  /** Directories the wrapped command runs in (`env -C DIR`); null = not static. */
  readonly cwds: readonly (string | null)[];
  /** Files a wrapper reads itself (`xargs -a FILE`). */
  readonly reads: readonly ArgValue[];
  /** Why a wrapper makes the call not read-only (an unknown or unsafe wrapper option), or null. */
  readonly issue: string | null;
  /** Constructs a wrapper option brings (`env -S` evaluates a string as a command line). */
  readonly flags: readonly ShellFlag[];
  /** `xargs`: the command also gets operands from its input, unknown before it runs. */
  readonly stdinOperands: boolean;
}

/** Value-taking flags of the wrappers without a table (they are never read-only). */
const CRUDE_WRAPPERS: Readonly<Record<string, ReadonlySet<string>>> = {
  coproc: new Set(),
  exec: new Set(['-a']),
  sudo: new Set(['-u', '--user', '-g', '--group', '-C', '-h', '--host', '-p', '--prompt', '-r', '-t', '-U', '-D', '--chdir']),
  doas: new Set(['-u', '-C']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
};

const MAX_WRAPPER_DEPTH = 8;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const word = (v: string): ShellWord => ({ text: v, value: v, glob: false });

export function unwrapCommand(cmd: Pick<SimpleCommand, 'argv'>): Unwrapped {
  let argv = cmd.argv;
  const wrappers: string[] = [];
  const envAssignments: Assignment[] = [];
  const cwds: (string | null)[] = [];
  const reads: ArgValue[] = [];
  const flags: ShellFlag[] = [];
  let issue: string | null = null;
  let stdinOperands = false;
  for (let depth = 0; depth < MAX_WRAPPER_DEPTH; depth++) {
    const name = baseName(argv[0]);
    if (name === null) break;
    const table = Object.hasOwn(WRAPPER_TABLES, name) ? WRAPPER_TABLES[name] : undefined;
    const crude = Object.hasOwn(CRUDE_WRAPPERS, name) ? CRUDE_WRAPPERS[name] : undefined;
    if (!table && !crude) break;
    // `command -v x` / `command -V x` only looks a name up: it is not a wrapper then.
    if (name === 'command' && argv.slice(1).some((w) => w.value === '-v' || w.value === '-V')) break;
    // Record an untrusted path (`./sudo`) as written so no allow list accepts it as the wrapper.
    wrappers.push(allowListName(argv[0]) ?? argv[0]?.value ?? name);
    let rest: readonly ShellWord[];
    if (table) {
      const parsed = parseArgs(name, table, argv.slice(1));
      if (!parsed.ok) {
        issue ??= parsed.reason;
        rest = skipDashWords(argv.slice(1), new Set());
      } else {
        if (isRuleOn('option_tables')) issue ??= firstUnsafe(name, parsed);
        for (const o of parsed.options) {
          if (name === 'env' && (o.spec.name === '-C' || o.spec.name === '--chdir')) cwds.push(o.value?.glob && isRuleOn('working_dirs') ? null : (o.value?.value ?? null));
          if ((o.spec.name === '-S' || o.spec.name === '--split-string') && isRuleOn('option_tables')) flags.push({ construct: 'eval_like', detail: `env ${o.written}` });
          if (o.spec.name === '--process-slot-var' && isDangerousEnvName(o.value?.value ?? 'PATH')) flags.push({ construct: 'env_tampering', detail: `xargs ${o.written}` });
          if (o.spec.effect === 'read' && o.value) reads.push(o.value);
        }
        rest = parsed.operands.length > 0 ? [...argv.slice(argv.length - parsed.rest.length - 1, argv.length - parsed.rest.length), ...parsed.rest] : [];
      }
    } else rest = skipDashWords(argv.slice(1), crude as ReadonlySet<string>);
    if (name === 'env' || name === 'sudo') {
      while (rest.length > 0 && rest[0]?.value != null && ASSIGNMENT.test(rest[0].value)) {
        const v = rest[0].value;
        const eq = v.indexOf('=');
        envAssignments.push({ name: v.slice(0, eq), value: word(v.slice(eq + 1)) });
        rest = rest.slice(1);
      }
    }
    // timeout's first operand is the duration, not the command.
    if (name === 'timeout') rest = rest.slice(1);
    if (name === 'xargs') stdinOperands = true;
    if (rest.length === 0) {
      // `env` alone prints the environment; `xargs` alone runs echo. Keep the wrapper as the command.
      return { argv: name === 'xargs' ? [word('echo')] : argv, wrappers, envAssignments, cwds, reads, issue, flags, stdinOperands };
    }
    argv = rest;
  }
  return { argv, wrappers, envAssignments, cwds, reads, issue, flags, stdinOperands };
}

/** Crude option skipping for wrappers without a table: flags (and the values of `valued` ones) up to the command. */
function skipDashWords(args: readonly ShellWord[], valued: ReadonlySet<string>): readonly ShellWord[] {
  let i = 0;
  while (i < args.length) {
    const v = args[i]?.value ?? null;
    if (v === null) break;
    if (v === '--') return args.slice(i + 1);
    if (!v.startsWith('-') || v === '-') break;
    i += valued.has(v) ? 2 : 1;
  }
  return args.slice(i);
}

/**
 * The script of `sh -c SCRIPT` (options before it skipped, `-o opt` too):
 * the static script, null when it is computed at run time, undefined when
 * the shell has no `-c` (it runs a script file or reads stdin).
 */
export function shellCScript(args: readonly ShellWord[]): string | null | undefined {
  let sawC = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]?.value ?? null;
    if (v === null) return sawC ? null : undefined;
    if (v === '--') return sawC ? (args[i + 1] === undefined ? undefined : (args[i + 1]?.value ?? null)) : undefined;
    if ((v.startsWith('-') || v.startsWith('+')) && v.length > 1) {
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(v)) sawC = true;
      if (v === '-o' || v === '+o' || v === '-O' || v === '+O') i++;
      continue;
    }
    return sawC ? v : undefined;
  }
  return undefined;
}
