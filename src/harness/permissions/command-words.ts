/**
 * Helpers on the words of one parsed simple command: the effective command
 * after wrappers (`sudo`, `env`, `timeout`...) are peeled off, and the closed
 * lists of shells, interpreters and environment variables that change what a
 * command runs. Regexes here only look at single, already-parsed words.
 */
import type { Assignment, SimpleCommand } from './shell-analysis.js';
import type { ShellWord } from './shell-words.js';

export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox']);

const INTERPRETERS: ReadonlySet<string> = new Set([
  'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'irb', 'php', 'lua', 'luajit', 'Rscript', 'pwsh', 'powershell',
  'osascript', 'tclsh', 'wish', 'jshell', 'groovy', 'scala', 'julia', 'guile', 'racket', 'expect',
]);

export function isInterpreter(name: string): boolean {
  return INTERPRETERS.has(name) || /^python[0-9.]*$/.test(name) || /^pypy[0-9.]*$/.test(name);
}

/** Variables that change which code a later command runs (loader, shell start-up, search paths, tool hooks). */
const DANGEROUS_ENV: ReadonlySet<string> = new Set([
  'PATH', 'BASH_ENV', 'ENV', 'IFS', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'HOME', 'CDPATH', 'GLOBIGNORE',
  'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB', 'PERLLIB',
  'RUBYOPT', 'RUBYLIB', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_ASKPASS', 'SSH_ASKPASS', 'GIT_EDITOR',
  'GIT_PAGER', 'PAGER', 'EDITOR', 'VISUAL', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_COUNT', 'GIT_DIR', 'GIT_WORK_TREE', 'NPM_CONFIG_SCRIPT_SHELL', 'npm_config_script_shell',
]);

export function isDangerousEnvName(name: string): boolean {
  return (
    DANGEROUS_ENV.has(name) ||
    name.startsWith('LD_') ||
    name.startsWith('DYLD_') ||
    name.startsWith('BASH_FUNC_') ||
    name.startsWith('GIT_CONFIG_KEY_') ||
    name.startsWith('GIT_CONFIG_VALUE_')
  );
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
}

/** Flags taking a value, per wrapper (so the value is not mistaken for the command). */
const WRAPPERS: Readonly<Record<string, ReadonlySet<string>>> = {
  time: new Set(),
  coproc: new Set(),
  nohup: new Set(),
  builtin: new Set(),
  command: new Set(),
  exec: new Set(['-a']),
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  sudo: new Set(['-u', '--user', '-g', '--group', '-C', '-h', '--host', '-p', '--prompt', '-r', '-t', '-U', '-D']),
  doas: new Set(['-u', '-C']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
  stdbuf: new Set(['-i', '-o', '-e']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  xargs: new Set(['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--replace']),
};

const MAX_WRAPPER_DEPTH = 8;

export function unwrapCommand(cmd: Pick<SimpleCommand, 'argv'>): Unwrapped {
  let argv = cmd.argv;
  const wrappers: string[] = [];
  const envAssignments: Assignment[] = [];
  for (let depth = 0; depth < MAX_WRAPPER_DEPTH; depth++) {
    const name = baseName(argv[0]);
    if (name === null) break;
    const valued = WRAPPERS[name];
    if (!valued) break;
    // `command -v x` / `command -V x` only looks a name up: it is not a wrapper then.
    if (name === 'command' && argv.slice(1).some((w) => w.value === '-v' || w.value === '-V')) break;
    let i = 1;
    while (i < argv.length) {
      const v = argv[i]?.value ?? null;
      if (v === null) break;
      if (v === '--') {
        i++;
        break;
      }
      if ((name === 'env' || name === 'sudo') && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
        const eq = v.indexOf('=');
        envAssignments.push({ name: v.slice(0, eq), value: { text: v.slice(eq + 1), value: v.slice(eq + 1), glob: false } });
        i++;
        continue;
      }
      if (!v.startsWith('-') || v === '-') break;
      i += valued.has(v) ? 2 : 1;
    }
    // timeout's first operand is the duration, not the command.
    if (name === 'timeout') i++;
    const rest = argv.slice(i);
    // Record an untrusted path (`./sudo`) as written so no allow list accepts it as the wrapper.
    wrappers.push(allowListName(argv[0]) ?? argv[0]?.value ?? name);
    if (rest.length === 0) {
      // `env` alone prints the environment; `xargs` alone runs echo. Keep the wrapper as the command.
      return { argv: name === 'xargs' ? [{ text: 'echo', value: 'echo', glob: false }] : argv, wrappers, envAssignments };
    }
    argv = rest;
  }
  return { argv, wrappers, envAssignments };
}
