/**
 * Programs whose file effects faultline cannot see: unknown commands,
 * interpreters and their inline code, shells running a script file, package
 * scripts. Their operands are judged as possibly written, and their code is
 * unseen: it may write anywhere, protected paths included, so without the
 * OS sandbox the chain asks for it in every mode (bypass does not lift it).
 */
import type { ShellWord } from './shell-words.js';
import type { ArgValue } from './option-parse.js';
import { SHELLS, shellCScript } from './command-words.js';
import { access, type Draft } from './command-draft.js';
import { INTERPRETER_CODE_OPTIONS } from './specs-writers.js';
import { isRuleOn } from './rule-switches.js';

/**
 * A program whose file effects faultline cannot see (an unknown command, an
 * interpreter, a shell running a script): every static operand and every
 * `--opt=value` value may be a file it writes. Code given with `-c`/`-e`
 * is skipped; a shell's `-c` script is analyzed as commands of its own.
 */
export function opaque(name: string, args: readonly ShellWord[], d: Draft, runsCode = true): void {
  const family = SHELLS.has(name) ? 'shell' : /^python/.test(name) ? 'python' : name === 'nodejs' ? 'node' : ['gawk', 'mawk', 'nawk'].includes(name) ? 'awk' : name;
  // Its code (a script file, inline code, a Makefile, package scripts) is unseen; a shell's `-c` script is not: it is analyzed.
  if (runsCode && isRuleOn('opaque_code') && !(family === 'shell' && shellCScript(args) !== undefined)) {
    d.unseenCode ??= `\`${name}\` runs code whose effects faultline cannot see`;
  }
  if (!isRuleOn('operand_paths')) return;
  const via = `\`${name}\` (faultline cannot see which files it writes)`;
  const code = Object.hasOwn(INTERPRETER_CODE_OPTIONS, family) ? INTERPRETER_CODE_OPTIONS[family] : undefined;
  let skipNext = false;
  let programSeen = family === 'awk' ? false : true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as ShellWord;
    if (skipNext) {
      skipNext = false;
      continue;
    }
    const v = a.value;
    if (v !== null && v.startsWith('-') && v !== '-') {
      if (family === 'shell' && /^-[a-z]*c/.test(v)) return; // `sh -c SCRIPT`: the script is analyzed on its own, its $0.. are not files
      if (code?.has(v) || (family === 'perl' && /^-[a-zA-Z]*[eE]$/.test(v)) || (family === 'python' && /^-[a-zA-Z]*c$/.test(v))) {
        skipNext = true;
        if (family === 'awk' && (v === '-f' || v === '--source' || v === '-e')) programSeen = true;
      }
      const eq = v.indexOf('=');
      if (v.startsWith('--') && eq > 0) d.accesses.push({ path: v.slice(eq + 1), access: 'any', via });
      continue;
    }
    if (!programSeen) {
      programSeen = true; // awk's first operand is its program, not a file
      continue;
    }
    d.accesses.push(access(a, 'any', via));
  }
}

/** The path-like parts of a word of a call that did not parse: the word, or the value after `=`. */
export function wordPaths(w: ShellWord): ArgValue[] {
  const v = w.value;
  if (v === null) return [{ value: null, glob: false, text: w.text }];
  if (!v.startsWith('-')) return [{ value: v, glob: w.glob, pattern: w.pattern, text: w.text }];
  const eq = v.indexOf('=');
  return eq > 0 ? [{ value: v.slice(eq + 1), glob: w.glob, text: w.text }] : [];
}
