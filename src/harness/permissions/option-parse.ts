/**
 * Option tables and a getopt-like parser for the commands the permission
 * layer knows (docs/harness-rules.md#shell-parsing). The rule is "unknown options are unsafe": a word
 * that is not an option of the command's table makes the parse fail, and
 * callers treat a failed parse as "not read-only". GNU `getopt_long` and
 * git's parse-options accept any unique prefix of a long option (`--outp` is
 * `--output`), so long options are resolved against the FULL table of the
 * command, unsafe options included: an abbreviation that reaches an unsafe
 * option is that option, and an ambiguous one fails closed.
 *
 * Resolving against a subset of the real table is still sound as long as
 * every listed option exists in the command: a prefix unique in our table is
 * either the same option for the command or ambiguous there (an error).
 */
import type { ShellWord } from './shell-words.js';
import type { TreeRead } from './types.js';

export type OptArg = 'none' | 'required' | 'optional';
/** `read`/`write`: the value is a file the command reads/writes. `unsafe`: runs code or cannot be judged. */
export type OptEffect = 'safe' | 'read' | 'write' | 'unsafe';

export interface OptSpec {
  /** Canonical spelling: `-o` or `--output`. */
  readonly name: string;
  readonly arg: OptArg;
  readonly effect: OptEffect;
  /** Model-facing: why an unsafe/write option is not read-only (`runs a program`). */
  readonly why?: string;
}

export interface OptionTable {
  readonly short: ReadonlyMap<string, OptSpec>;
  readonly long: ReadonlyMap<string, OptSpec>;
  /** Long names sorted, for prefix resolution. */
  readonly longNames: readonly string[];
  /** `-5` style numeric options (head, tail, grep context, diff). */
  readonly digits: boolean;
  /** Options end at the first operand (`+` in the optstring: env, xargs, timeout, git). Default: GNU permutation. */
  readonly stopAtOperand: boolean;
  /** Words that look like negative numbers are operands (seq, expr). */
  readonly negativeNumbers: boolean;
}

export type EffectSpec = OptEffect | readonly [OptEffect, string];

export interface TableOptions {
  readonly digits?: boolean;
  readonly stopAtOperand?: boolean;
  readonly negativeNumbers?: boolean;
  /** Per option (`-o`, `--output`): its effect, optionally with a reason. Unlisted options are `safe`. */
  readonly effects?: Readonly<Record<string, EffectSpec>>;
}

/**
 * Build a table. `short` is a getopt optstring (`ab:c::` = `-a`, `-b ARG`,
 * `-c[ARG]`); `long` lists long names separated by spaces, `name=` takes an
 * argument, `name?` an optional one (only as `--name=ARG`). A short option
 * and a long one that share an effect key are listed separately.
 */
export function optionTable(short: string, long: string, options: TableOptions = {}): OptionTable {
  const effects = options.effects ?? {};
  const effectOf = (name: string): { effect: OptEffect; why?: string } => {
    const e = effects[name];
    if (e === undefined) return { effect: 'safe' };
    return typeof e === 'string' ? { effect: e } : { effect: e[0], why: e[1] };
  };
  const shortMap = new Map<string, OptSpec>();
  for (let i = 0; i < short.length; i++) {
    const ch = short[i] as string;
    let arg: OptArg = 'none';
    if (short[i + 1] === ':') {
      arg = short[i + 2] === ':' ? 'optional' : 'required';
      i += arg === 'optional' ? 2 : 1;
    }
    shortMap.set(ch, { name: `-${ch}`, arg, ...effectOf(`-${ch}`) });
  }
  const longMap = new Map<string, OptSpec>();
  for (const raw of long.split(/\s+/).filter(Boolean)) {
    const last = raw[raw.length - 1];
    const arg: OptArg = last === '=' ? 'required' : last === '?' ? 'optional' : 'none';
    const name = arg === 'none' ? raw : raw.slice(0, -1);
    longMap.set(name, { name: `--${name}`, arg, ...effectOf(`--${name}`) });
  }
  for (const key of Object.keys(effects)) {
    const known = key.startsWith('--') ? longMap.has(key.slice(2)) : shortMap.has(key.slice(1));
    if (!known) throw new Error(`option table: effect for unknown option ${key}`);
  }
  return {
    short: shortMap,
    long: longMap,
    longNames: [...longMap.keys()].sort(),
    digits: options.digits ?? false,
    stopAtOperand: options.stopAtOperand ?? false,
    negativeNumbers: options.negativeNumbers ?? false,
  };
}

/** A word or a part of one (a glued option value): the static value, null when dynamic. */
export interface ArgValue {
  readonly value: string | null;
  readonly glob: boolean;
  /** Glob pattern with quoted metacharacters escaped (see ShellWord.pattern). */
  readonly pattern?: string;
  /** The whole word as written (for messages). */
  readonly text: string;
  /** See ShellWord.tree. */
  readonly tree?: TreeRead;
}

export interface ParsedOption {
  readonly spec: OptSpec;
  /** As written (`--outp=x`, `-e.`), for messages. */
  readonly written: string;
  readonly value: ArgValue | null;
}

export type ParsedArgs =
  | { readonly ok: true; readonly options: readonly ParsedOption[]; readonly operands: readonly ArgValue[]; readonly rest: readonly ShellWord[] }
  | { readonly ok: false; readonly reason: string };

const asArg = (w: ShellWord): ArgValue => ({ value: w.value, glob: w.glob, pattern: w.pattern, text: w.text, ...(w.tree ? { tree: w.tree } : {}) });
/** A glued value (`--file=x`, `-e.`). A glob in it has no reliable pattern: the expander treats it as unknown. */
const part = (w: ShellWord, v: string): ArgValue => ({ value: v, glob: w.glob, text: w.text });

/** Resolve a long name (exact, else unique prefix). */
export function resolveLong(table: OptionTable, name: string): OptSpec | { ambiguous: string[] } | null {
  const exact = table.long.get(name);
  if (exact) return exact;
  const hits = table.longNames.filter((n) => n.startsWith(name));
  if (hits.length === 1) return table.long.get(hits[0] as string) ?? null;
  if (hits.length > 1) return { ambiguous: hits };
  return null;
}

/**
 * Parse `args` (the words after the command name) against `table`.
 * `stopAt(word, index)` may end option parsing early (find's expression, a
 * nested command); the words from there are returned in `rest`.
 */
export function parseArgs(command: string, table: OptionTable, args: readonly ShellWord[], stopAt?: (w: ShellWord) => boolean): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: ArgValue[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as ShellWord;
    const v = w.value;
    if (!ended && stopAt?.(w)) return { ok: true, options, operands, rest: args.slice(i) };
    if (ended || v === null || v === '-' || !v.startsWith('-') || (table.negativeNumbers && /^-[0-9.]/.test(v))) {
      // A dynamic word may expand to an option: callers judge it as an unknown operand (path null).
      operands.push(asArg(w));
      if (table.stopAtOperand && !ended) return { ok: true, options, operands, rest: args.slice(i + 1) };
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const spec = resolveLong(table, name);
      if (spec === null) return { ok: false, reason: `\`${command} ${v}\` is an option faultline does not know to be safe` };
      if ('ambiguous' in spec) return { ok: false, reason: `\`${command} --${name}\` is ambiguous (${spec.ambiguous.slice(0, 4).map((n) => `--${n}`).join(', ')})` };
      let value: ArgValue | null = null;
      if (eq >= 0) {
        if (spec.arg === 'none') return { ok: false, reason: `\`${command} ${spec.name}\` takes no value` };
        value = part(w, v.slice(eq + 1));
      } else if (spec.arg === 'required') {
        const next = args[i + 1];
        if (next === undefined) return { ok: false, reason: `\`${command} ${spec.name}\` needs a value` };
        value = asArg(next);
        i++;
      }
      options.push({ spec, written: v, value });
      continue;
    }
    // A cluster of short options: `-la`, `-e.` (glued value), `-n5`, `-5`.
    if (table.digits && /^-[0-9]+$/.test(v)) {
      options.push({ spec: { name: '-NUM', arg: 'none', effect: 'safe' }, written: v, value: null });
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const ch = v[j] as string;
      const spec = table.short.get(ch);
      if (!spec) return { ok: false, reason: `\`${command} -${ch}\`${v.length > 2 ? ` (in ${v})` : ''} is an option faultline does not know to be safe` };
      if (spec.arg === 'none') {
        options.push({ spec, written: v, value: null });
        continue;
      }
      if (j + 1 < v.length) {
        options.push({ spec, written: v, value: part(w, v.slice(j + 1)) });
      } else if (spec.arg === 'required') {
        const next = args[i + 1];
        if (next === undefined) return { ok: false, reason: `\`${command} ${spec.name}\` needs a value` };
        options.push({ spec, written: v, value: asArg(next) });
        i++;
      } else options.push({ spec, written: v, value: null });
      break;
    }
  }
  return { ok: true, options, operands, rest: [] };
}

/** The first option whose effect is unsafe or write, with its reason (model-facing), or null. */
export function firstUnsafe(command: string, parsed: Extract<ParsedArgs, { ok: true }>): string | null {
  for (const o of parsed.options) {
    if (o.spec.effect !== 'unsafe' && o.spec.effect !== 'write') continue;
    const alias = o.written.startsWith(o.spec.name) ? '' : ` (\`${o.written.split('=')[0]}\` is \`${o.spec.name}\`)`;
    return `\`${command} ${o.spec.name}\`${alias} ${o.spec.why ?? (o.spec.effect === 'write' ? 'writes a file' : 'can run code or change state')}`;
  }
  return null;
}
