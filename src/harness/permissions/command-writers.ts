/**
 * Commands that write files, judged by operand role (specs-writers.ts), and
 * the two with their own syntax: sed (`-i`, and scripts that write or read
 * files or run commands, sed-script.ts) and dd (`if=`/`of=`). Every file they
 * touch is path-judged in every mode.
 */
import type { ShellWord } from './shell-words.js';
import type { TreeRead } from './types.js';
import { access, type Draft } from './command-draft.js';
import { wordPaths } from './command-opaque.js';
import { parseArgs, type ArgValue } from './option-parse.js';
import { DD_OPERANDS, SED_TABLE, WRITERS } from './specs-writers.js';
import { sedScriptEffects } from './sed-script.js';
import { isRuleOn } from './rule-switches.js';

export function sed(args: readonly ShellWord[], d: Draft): void {
  const parsed = parseArgs('sed', SED_TABLE, args);
  if (!parsed.ok) {
    d.notReadOnly ??= parsed.reason;
    for (const a of args) for (const p of wordPaths(a)) d.accesses.push(access(p, 'any', '`sed`'));
    return;
  }
  const inPlace = parsed.options.some((o) => o.spec.name === '-i' || o.spec.name === '--in-place');
  const scripts = parsed.options.filter((o) => o.spec.name === '-e' || o.spec.name === '--expression').map((o) => o.value?.value ?? null);
  const fromFile = parsed.options.filter((o) => o.spec.name === '-f' || o.spec.name === '--file');
  for (const f of fromFile) if (f.value) d.accesses.push(access(f.value, 'read', '`sed -f`'));
  let files = parsed.operands;
  if (scripts.length === 0 && fromFile.length === 0) {
    scripts.push(files[0]?.value ?? null);
    files = files.slice(1);
  }
  // A script read from a file, or one that runs commands, is opaque: its operands may be written.
  let opaqueScript = fromFile.length > 0;
  for (const s of scripts) {
    const fx = s === null ? null : sedScriptEffects(s);
    if (fx === null) opaqueScript = true;
    else {
      for (const w of fx.writes) d.accesses.push({ path: w, access: 'write', via: '`sed` (its script writes a file)' });
      for (const r of fx.reads) d.accesses.push({ path: r, access: 'read', via: '`sed` (its script reads a file)' });
      if (fx.runs) opaqueScript = true;
    }
  }
  // Read-only when it only prints: no -i, and a static script without `w`/`e` (its `r` files are judged as reads).
  const writesFiles = scripts.some((s) => {
    const fx = s === null ? null : sedScriptEffects(s);
    return fx === null || fx.writes.length > 0 || fx.runs;
  });
  if (inPlace) d.notReadOnly ??= '`sed -i` edits its files in place';
  else if (opaqueScript || writesFiles) d.notReadOnly ??= '`sed` with a script that writes files or runs commands (`w`, `e`, `-f`)';
  // Its `w`/`e` commands are then unknown: it may write or run anything.
  if (opaqueScript && isRuleOn('opaque_code')) d.unseenCode ??= '`sed` runs a script whose commands faultline cannot see (`-f`, `e`, or computed)';
  const kind = inPlace ? 'write' : opaqueScript ? 'any' : 'read';
  for (const f of files) if (f.value !== '-') d.accesses.push(access(f, kind, inPlace ? '`sed -i`' : '`sed`'));
}

export function dd(args: readonly ShellWord[], d: Draft): void {
  d.notReadOnly ??= '`dd` is not on the read-only list';
  for (const a of args) {
    const v = a.value;
    if (v === null) {
      d.accesses.push({ path: null, access: 'any', via: '`dd`' });
      continue;
    }
    const eq = v.indexOf('=');
    const key = eq > 0 ? v.slice(0, eq) : '';
    if (key === 'if') d.accesses.push({ path: v.slice(eq + 1), access: 'read', via: '`dd if=`' });
    else if (key === 'of') d.accesses.push({ path: v.slice(eq + 1), access: 'write', via: '`dd of=`' });
    else if (!DD_OPERANDS.has(key)) d.accesses.push({ path: v, access: 'any', via: '`dd`' });
  }
}

export function writer(name: string, args: readonly ShellWord[], d: Draft): void {
  const spec = WRITERS[name]!;
  const via = `\`${name}\``;
  d.notReadOnly ??= `\`${name}\` ${name === 'tee' ? 'writes its file operands' : 'changes files'}`;
  const parsed = parseArgs(name, spec.table, args);
  if (!parsed.ok) {
    for (const a of args) for (const p of wordPaths(a)) d.accesses.push(access(p, 'write', via));
    return;
  }
  let target: ArgValue | null = null;
  for (const o of parsed.options) {
    if (!o.value) continue;
    if (o.spec.effect === 'read') d.accesses.push(access(o.value, 'read', `\`${name} ${o.spec.name}\``));
    if (o.spec.effect === 'write') target = o.value;
  }
  const ops = parsed.operands;
  const has = (...n: string[]) => parsed.options.some((o) => n.includes(o.spec.name));
  switch (spec.role) {
    case 'write':
      for (const o of ops) if (o.value !== '-') d.accesses.push(access(o, 'write', via));
      break;
    case 'after-first': {
      const refOnly = has('--reference');
      for (const o of refOnly ? ops : ops.slice(1)) d.accesses.push(access(o, 'write', via));
      break;
    }
    case 'copy':
    case 'move': {
      const dest = target ?? ops[ops.length - 1];
      const sources = target ? ops : ops.slice(0, -1);
      // A hard link is a second name for the same file: writing through it writes the source.
      const linkSources = spec.role === 'move' || (name === 'ln' && !has('-s', '--symbolic')) || (name === 'cp' && has('-l', '--link'));
      const symbolic = name === 'ln' && has('-s', '--symbolic');
      // cp -r reads the trees under its sources (following links inside with -L).
      const recursive = name === 'cp' && has('-r', '-R', '-a', '--recursive', '--archive');
      const tree: TreeRead | undefined = recursive ? { mode: has('-L', '--dereference') ? 'follow' : 'walk' } : undefined;
      if (!symbolic) for (const s of sources) d.accesses.push(access(s, linkSources ? 'write' : 'read', via, tree));
      else for (const s of sources) d.linkTargets.push(access(s, 'any', `\`${name} -s\` (a link the same command then uses)`));
      if (dest) d.accesses.push(access(dest, 'write', via));
      break;
    }
  }
}
