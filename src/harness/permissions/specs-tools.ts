/**
 * Option tables of the wrappers (`env`, `xargs`, `timeout`, `nice`, `stdbuf`,
 * `time`, `command`) and of the small read-only commands whose operands are
 * not files (echo, printf, test, date, ...), plus npm and docker. Same rules
 * as specs-files.ts: listed options exist, unknown ones are not safe.
 */
import { optionTable, type OptionTable } from './option-parse.js';

/** Wrappers: options end at the command they run. */
export const WRAPPER_TABLES: Readonly<Record<string, OptionTable>> = {
  env: optionTable('i0u:C:S:v', 'ignore-environment null unset= chdir= split-string= block-signal? default-signal? ignore-signal? list-signal-handling debug help version', {
    stopAtOperand: true,
    effects: { '-S': ['unsafe', 'splits a string into a command line'], '--split-string': ['unsafe', 'splits a string into a command line'] },
  }),
  xargs: optionTable('0a:E:e::i::I:l::L:n:prs:txP:d:o', 'null arg-file= delimiter= eof? replace? max-lines? max-args= open-tty max-procs= interactive process-slot-var= no-run-if-empty max-chars= show-limits verbose exit help version', {
    stopAtOperand: true,
    effects: {
      '--process-slot-var': ['unsafe', 'sets an environment variable of the command it runs'],
      '-o': ['unsafe', 'gives the command the terminal'], '--open-tty': ['unsafe', 'gives the command the terminal'],
      '-a': 'read', '--arg-file': 'read',
    },
  }),
  timeout: optionTable('k:s:vf', 'preserve-status foreground kill-after= signal= verbose help version', { stopAtOperand: true }),
  nice: optionTable('n:', 'adjustment= help version', { stopAtOperand: true, digits: true }),
  stdbuf: optionTable('i:o:e:', 'input= output= error= help version', { stopAtOperand: true }),
  time: optionTable('p', '', { stopAtOperand: true }),
  command: optionTable('pvV', '', { stopAtOperand: true }),
  builtin: optionTable('', '', { stopAtOperand: true }),
  nohup: optionTable('', 'help version', { stopAtOperand: true }),
};

/**
 * Read-only commands whose arguments are neither files nor code: no option of
 * theirs writes or runs anything, so their options are not parsed. (`printf -v`
 * and `test -v` take variable names, which the shell analysis checks: a
 * subscript in a name is evaluated, see shell-evaluated.ts.)
 */
export const PURE_COMMANDS: ReadonlySet<string> = new Set([
  'echo', 'printf', 'true', 'false', ':', 'pwd', 'which', 'whereis', 'type', 'basename', 'dirname', 'seq', 'whoami',
  'id', 'uname', 'printenv', 'sleep', 'nproc', 'arch', 'test', '[',
]);

/** Read-only commands with options that matter, and no file operands. */
export const PURE_TABLES: Readonly<Record<string, OptionTable>> = {
  hostname: optionTable('', ''),
  date: optionTable('d:f:I::r:Rs:u', 'date= debug file= iso-8601? resolution rfc-email rfc-3339= reference= set= utc universal help version', {
    effects: { '-s': ['unsafe', 'sets the system clock'], '--set': ['unsafe', 'sets the system clock'], '-f': 'read', '--file': 'read', '-r': 'read', '--reference': 'read' },
  }),
  node: optionTable('v', 'version'),
};

export const NPM_READ_ONLY = new Set(['ls', 'list', 'll', 'la', 'view', 'info', 'show', 'v', 'outdated', 'search', 'prefix', 'root', 'explain', 'why', 'query', 'find-dupes']);
/** npm (nopt) also accepts prefixes of its options. The project's .npmrc is read, but none of these commands runs scripts. */
export const NPM_TABLE = optionTable('agpldw:v', 'json all depth= long parseable omit= include= production dev link global unicode workspace= workspaces include-workspace-root no-description prefer-online prefer-offline offline audit-level= package-lock-only version', {
  effects: { '-g': ['unsafe', 'reads the global installation'], '--global': ['unsafe', 'reads the global installation'] },
});

export const DOCKER_TABLE = optionTable('aqsf:n:lt', 'all quiet size filter= last= latest no-trunc digests format= tail= timestamps since= until= details type= human no-stream');
