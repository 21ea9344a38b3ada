/**
 * Per-command constructs that must go to ask (docs/harness-rules.md#shell-parsing "injection patterns"):
 * eval-like built-ins, input piped into a shell or interpreter, environment
 * tricks through `env`/`sudo`, and command names that are not static.
 * (Substitutions and shell-level assignments are flagged by the walker.)
 */
import type { ShellFlag, SimpleCommand } from './shell-types.js';
import type { ShellWord } from './shell-words.js';
import { SHELLS, baseName, isDangerousEnvName, isInterpreter, unwrapCommand } from './command-words.js';
import { isRuleOn } from './rule-switches.js';

/** Built-ins that run a string or a file as shell code, or replace the shell. */
const EVAL_LIKE: ReadonlySet<string> = new Set(['eval', 'source', '.', 'exec', 'trap', 'fc', 'alias', 'enable', 'coproc']);
/** Built-ins that evaluate a word as code (`compgen -C CMD`, `complete -C`, `mapfile -C CALLBACK`): see shell-evaluated.ts. */
const EVALUATES_WORD: ReadonlySet<string> = new Set(['compgen', 'complete']);

export function flagCommand(cmd: SimpleCommand): ShellFlag[] {
  const flags: ShellFlag[] = [];
  const u = unwrapCommand(cmd);
  const name = baseName(u.argv[0]);
  if (name === null) {
    flags.push({ construct: 'dynamic_command', detail: u.argv[0]?.text ?? '' });
    return flags;
  }
  const wrapperEval = u.wrappers.find((w) => w === 'exec' || w === 'coproc');
  if (EVAL_LIKE.has(name) || wrapperEval) flags.push({ construct: 'eval_like', detail: wrapperEval ?? name });
  if (isRuleOn('evaluated_words')) {
    if (EVALUATES_WORD.has(name)) flags.push({ construct: 'eval_like', detail: name });
    // `mapfile -C CALLBACK` evaluates the callback for each line.
    if ((name === 'mapfile' || name === 'readarray') && u.argv.some((w) => w.value === null || /^-[a-zA-Z]*C/.test(w.value))) flags.push({ construct: 'eval_like', detail: `${name} -C` });
  }
  for (const a of u.envAssignments) if (isDangerousEnvName(a.name)) flags.push({ construct: 'env_tampering', detail: a.name });
  for (const f of shellOptionFlags(name, u.argv.slice(1))) flags.push(f);
  // `hash -p PROG NAME` makes a later `NAME` run PROG: the command name judged later is not what runs.
  if (name === 'hash' && isRuleOn('opaque_code') && u.argv.slice(1).some((w) => w.value === null || /^-[a-zA-Z]*p/.test(w.value))) flags.push({ construct: 'eval_like', detail: 'hash -p (a later command name runs another program)' });

  const runsCode = SHELLS.has(name) || isInterpreter(name);
  if (runsCode && u.wrappers.includes('xargs')) {
    // `... | xargs sh` runs whatever names arrive on stdin.
    flags.push({ construct: 'pipe_to_interpreter', detail: name });
  } else if (cmd.stdinFed && (SHELLS.has(name) || (isInterpreter(name) && readsProgramFromStdin(u.argv.slice(1).map((w) => w.value))))) {
    flags.push({ construct: 'pipe_to_interpreter', detail: name });
  }
  return flags;
}

/** `python`, `python -`, `node` with no script operand read their program from stdin. */
function readsProgramFromStdin(args: readonly (string | null)[]): boolean {
  for (const a of args) {
    if (a === null) return true; // unknown operand: assume the worst
    if (a === '-') return true;
    if (a === '-c' || a === '-e' || a === '--eval' || a === '-m' || a === '-p' || a === '--print') return false;
    if (!a.startsWith('-')) return false; // a script file
  }
  return true;
}

/** Built-ins that assign the variable named by an operand (`read NAME`, `printf -v NAME`): with `set -a` it is exported. */
const NAME_SETTERS: Readonly<Record<string, RegExp | null>> = { read: null, mapfile: null, readarray: null, getopts: null, printf: /^-v(.*)$/, wait: /^-[a-zA-Z]*p(.*)$/ };

/**
 * Shell state that changes what later words mean (fresh shell per call, so
 * only within this command): `set -k` makes every `NAME=value` argument an
 * environment variable of its command (`set -k; git diff GIT_EXTERNAL_DIFF=x`),
 * `shopt -s cdable_vars` lets `cd NAME` go where $NAME points, and a
 * built-in that assigns a dangerous name (`read GIT_DIR`, `printf -v
 * GIT_EXTERNAL_DIFF`) exports it under `set -a`. Closed cases, flagged in
 * every mode.
 */
function shellOptionFlags(name: string, args: readonly ShellWord[]): ShellFlag[] {
  if (!isRuleOn('config_sources')) return [];
  const values = args.map((w) => w.value);
  if (name === 'set') {
    const keyword = values.some((v, i) => v === null || /^[-+][a-zA-Z]*k/.test(v) || ((v === '-o' || v === '+o') && (values[i + 1] === 'keyword' || values[i + 1] === null)));
    return keyword ? [{ construct: 'env_tampering', detail: 'set -k (assignment-like arguments become environment variables)' }] : [];
  }
  if (name === 'shopt') {
    return values.some((v) => v === null || v === 'cdable_vars') ? [{ construct: 'env_tampering', detail: 'shopt cdable_vars (cd follows variable values)' }] : [];
  }
  if (!Object.hasOwn(NAME_SETTERS, name)) return [];
  const glued = NAME_SETTERS[name] ?? null;
  const out: ShellFlag[] = [];
  values.forEach((v, i) => {
    const target = glued === null ? v : values[i - 1] !== null && glued.test(`${values[i - 1]}`) && glued.exec(`${values[i - 1]}`)?.[1] === '' ? v : v !== null ? (glued.exec(v)?.[1] ?? null) : null;
    if (target !== null && target !== '' && isDangerousEnvName(target.replace(/\[.*$/, ''))) out.push({ construct: 'env_tampering', detail: `${name} sets ${target}` });
  });
  return out;
}
