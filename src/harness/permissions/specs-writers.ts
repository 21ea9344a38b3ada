/**
 * Commands that write files, with the role of each operand, so the path
 * guard judges what they write in every mode, bypass included (docs/harness-rules.md#permission-chain:
 * writes outside the workspace and to protected paths are refused whatever
 * the mode). Their option tables only need the options that take a value,
 * so a value is not mistaken for an operand; when a call does not parse,
 * every operand and option value is judged as written (fail closed).
 */
import { optionTable, type OptionTable } from './option-parse.js';

export type OperandRole =
  /** Every operand is written (rm, mkdir, touch, tee...). */
  | 'write'
  /** The first operand is a mode/owner, the rest are written (chmod). */
  | 'after-first'
  /** Sources read, the last operand (or `-t DIR`) written (cp, install, ln). */
  | 'copy'
  /** Sources and destination written (mv removes its sources). */
  | 'move';

export interface WriterSpec {
  readonly table: OptionTable;
  readonly role: OperandRole;
}

const CP_LONG = 'archive attributes-only backup? copy-contents dereference force interactive link no-dereference no-clobber preserve? no-preserve= parents recursive reflog? reflink? remove-destination sparse= strip-trailing-slashes symbolic-link suffix= target-directory= no-target-directory update? verbose one-file-system context? debug help version';

export const WRITERS: Readonly<Record<string, WriterSpec>> = {
  rm: { table: optionTable('fiIrRdv', 'force interactive? one-file-system no-preserve-root preserve-root? recursive dir verbose help version'), role: 'write' },
  rmdir: { table: optionTable('pv', 'ignore-fail-on-non-empty parents verbose help version'), role: 'write' },
  mkdir: { table: optionTable('m:pvZ', 'mode= parents verbose context? help version'), role: 'write' },
  touch: { table: optionTable('acd:fhmr:t:', 'date= no-create no-dereference reference= time= help version', { effects: { '-r': 'read', '--reference': 'read' } }), role: 'write' },
  truncate: { table: optionTable('cor:s:', 'no-create io-blocks reference= size= help version', { effects: { '-r': 'read', '--reference': 'read' } }), role: 'write' },
  shred: { table: optionTable('fn:s:uvxz', 'force iterations= random-source= size= remove? verbose exact zero help version', { effects: { '--random-source': 'read' } }), role: 'write' },
  tee: { table: optionTable('aip', 'append ignore-interrupts output-error? help version'), role: 'write' },
  chmod: { table: optionTable('cfvR', 'changes silent quiet verbose no-preserve-root preserve-root reference= recursive help version', { effects: { '--reference': 'read' } }), role: 'after-first' },
  chown: { table: optionTable('cfvRHLPh', 'changes silent quiet verbose dereference no-dereference from= no-preserve-root preserve-root reference= recursive help version', { effects: { '--reference': 'read' } }), role: 'after-first' },
  chgrp: { table: optionTable('cfvRHLPh', 'changes silent quiet verbose dereference no-dereference no-preserve-root preserve-root reference= recursive help version', { effects: { '--reference': 'read' } }), role: 'after-first' },
  cp: { table: optionTable('abdfHilLnPprRsS:t:TuvxZ', CP_LONG, { effects: { '-t': 'write', '--target-directory': 'write' } }), role: 'copy' },
  install: { table: optionTable('bcCdDg:m:o:pPsS:t:TvZ', 'backup? compare directory group= mode= owner= preserve-timestamps strip strip-program= suffix= target-directory= no-target-directory verbose preserve-context context? help version', {
    effects: { '-t': 'write', '--target-directory': 'write', '--strip-program': ['unsafe', 'runs a program'] },
  }), role: 'copy' },
  ln: { table: optionTable('bdfFinLPrsS:t:Tv', 'backup? directory force interactive logical no-dereference physical relative symbolic suffix= target-directory= no-target-directory verbose help version', {
    effects: { '-t': 'write', '--target-directory': 'write' },
  }), role: 'copy' },
  mv: { table: optionTable('bfinS:t:TuvZ', 'backup? force interactive no-clobber no-copy strip-trailing-slashes suffix= target-directory= no-target-directory update? verbose context exchange debug help version', {
    effects: { '-t': 'write', '--target-directory': 'write' },
  }), role: 'move' },
  // sed is handled in command-model.ts (its script may write files); gzip & co. write next to their operands.
  gzip: { table: optionTable('cdfhklLnNqrS:tvV123456789', 'stdout to-stdout decompress uncompress force help keep list license no-name name quiet recursive rsyncable suffix= synchronous test verbose version best fast'), role: 'write' },
  gunzip: { table: optionTable('cdfhklLnNqrS:tvV', 'stdout to-stdout decompress uncompress force help keep list license no-name name quiet recursive suffix= synchronous test verbose version'), role: 'write' },
};

/** sed (GNU 4.9): `-i[SUF]` edits its operands in place; `-f FILE` reads a script; `--follow-symlinks` edits the target. */
export const SED_TABLE = optionTable('nrsuzEe:f:i::l:', 'quiet silent debug expression= file= follow-symlinks in-place? line-length= null-data zero-terminated posix regexp-extended separate sandbox unbuffered binary help version', {
  effects: { '-f': 'read', '--file': 'read' },
});

/** dd operands: `if=` read, `of=` written; the others are numbers and flags. */
export const DD_OPERANDS = new Set(['bs', 'cbs', 'conv', 'count', 'ibs', 'iflag', 'obs', 'oflag', 'seek', 'skip', 'status', 'iseek', 'oseek']);

/**
 * Interpreters and the options whose value is code or a module (not a file
 * operand). Their code is opaque: the operands after it are judged as
 * possibly written (see command-model.ts).
 */
export const INTERPRETER_CODE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  python: new Set(['-c', '-m', '-W', '-X', '-Q']),
  node: new Set(['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader', '--input-type', '-C', '--conditions', '--title']),
  perl: new Set(['-e', '-E', '-I', '-M', '-m', '-x', '-d', '-D', '-l', '-0', '-F', '-C']),
  ruby: new Set(['-e', '-I', '-r', '-E', '-C', '-F', '-x']),
  php: new Set(['-r', '-d', '-c', '-B', '-R', '-F', '-E', '-z']),
  awk: new Set(['-f', '-v', '-F', '-e', '--source', '-i', '--include', '-l', '--load', '-E', '--exec']),
};
