/**
 * Per-command constructs that must go to ask (seed §8.4 "injection patterns"):
 * eval-like built-ins, input piped into a shell or interpreter, environment
 * tricks through `env`/`sudo`, and command names that are not static.
 * (Substitutions and shell-level assignments are flagged by the walker.)
 */
import type { ShellFlag, SimpleCommand } from './shell-analysis.js';
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
