/**
 * Hard block of dangerous shell commands (docs/harness-rules.md#permission-layers layer ②, docs/harness-rules.md#permission-chain step 2).
 * Judged on the parsed command, on every simple command of a compound one
 * (wrappers such as `sudo`/`env`/`timeout` peeled off), and recursively inside
 * `sh -c '...'` and `eval '...'` when their script is static. No configuration
 * or mode can allow these: the chain checks them before any allow.
 */
import { posix } from 'node:path';
import { analyzeShell, type ShellAnalysis, type SimpleCommand } from './shell-analysis.js';
import { SHELLS, baseName, isInterpreter, unwrapCommand } from './command-words.js';
import { parseArgs } from './option-parse.js';
import { GIT_GLOBAL } from './specs-git.js';
import type { ShellWord } from './shell-words.js';

export const DANGER_IDS = [
  'rm_critical', 'rm_no_preserve_root', 'mkfs', 'dd_device', 'device_redirect', 'fork_bomb', 'chmod_critical',
  'download_to_shell', 'git_force_push_main', 'power', 'find_delete_critical', 'mv_critical',
] as const;
export type DangerId = (typeof DANGER_IDS)[number];

export interface DangerHit {
  readonly id: DangerId;
  /** Model-facing: what is refused and what to do instead. */
  readonly reason: string;
}

export interface DangerOptions {
  /** The user's home directory (`~`, `$HOME`). */
  readonly homeDir: string;
  /** Rules switched off (tests only: proves each rule is what blocks its case). */
  readonly skip?: ReadonlySet<DangerId>;
}

const SYSTEM_DIRS = new Set(['/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin', '/srv', '/sys', '/usr', '/var', '/System', '/Library', '/Users', '/Applications']);
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/random', '/dev/urandom']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https']);
/** Commands that write to their file operands. */
const DEVICE_WRITERS = new Set(['tee', 'shred', 'truncate']);
const COPIERS = new Set(['cp', 'mv', 'install']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const MAX_DEPTH = 3;

/** The first dangerous part of `command`, or null. Unparseable commands are not judged here (they go to ask). */
export function findDangerousCommand(command: string, opts: DangerOptions): DangerHit | null {
  return dangerIn(analyzeShell(command), opts, 0);
}

export function dangerIn(analysis: ShellAnalysis, opts: DangerOptions, depth: number): DangerHit | null {
  if (!analysis.ok) return null;
  const on = (id: DangerId): boolean => !opts.skip?.has(id);
  if (on('fork_bomb') && analysis.functions.some((f) => f.recursive)) {
    return { id: 'fork_bomb', reason: 'a function that calls itself (fork bomb) is blocked. Do not define recursive shell functions.' };
  }
  for (const r of analysis.redirects) {
    const t = r.target?.value ?? null;
    if (on('device_redirect') && r.access === 'write' && t !== null && isRawDevice(t)) {
      return { id: 'device_redirect', reason: `writing to the device ${t} is blocked: it destroys the disk or hardware state.` };
    }
  }
  if (on('download_to_shell')) {
    const downloads = analysis.commands.some((c) => DOWNLOADERS.has(baseName(unwrapCommand(c).argv[0]) ?? ''));
    // A piped stage whose name is only known at run time (`| $SHELL`) may be a shell too.
    const piped = analysis.flags.some((f) => f.construct === 'pipe_to_interpreter') || analysis.commands.some((c) => c.stdinFed && baseName(unwrapCommand(c).argv[0]) === null);
    const substituted = analysis.commands.some((c) => runsCode(c) && c.substitutedCommands.some((n) => DOWNLOADERS.has(n)));
    if ((downloads && piped) || substituted) {
      return { id: 'download_to_shell', reason: 'running a downloaded script (curl/wget into a shell) is blocked. Download it to a file inside the workspace and show it for review instead.' };
    }
  }
  // `cd / && rm -rf *`: relative targets are also judged from every static `cd` target.
  const ctx: Ctx = { ...opts, cwds: cdTargets(analysis.commands, opts.homeDir) };
  for (const cmd of analysis.commands) {
    const hit = dangerInCommand(cmd, ctx, depth);
    if (hit) return hit;
  }
  return null;
}

interface Ctx extends DangerOptions {
  readonly cwds: readonly string[];
}

function cdTargets(commands: readonly SimpleCommand[], homeDir: string): string[] {
  const out: string[] = [];
  for (const c of commands) {
    const u = unwrapCommand(c);
    const name = baseName(u.argv[0]);
    if (name !== 'cd' && name !== 'pushd') continue;
    const target = u.argv.slice(1).find((w) => w.value === null || !w.value.startsWith('-'));
    if (target === undefined) out.push(homeDir);
    else if (target.value !== null && (target.value.startsWith('/') || target.value === '~' || target.value.startsWith('~/'))) {
      out.push(target.value.startsWith('~') ? homeDir + target.value.slice(1) : target.value);
    }
  }
  return out;
}

function runsCode(cmd: SimpleCommand): boolean {
  const name = baseName(unwrapCommand(cmd).argv[0]) ?? '';
  return SHELLS.has(name) || isInterpreter(name) || name === 'eval' || name === 'source' || name === '.';
}

function dangerInCommand(cmd: SimpleCommand, opts: Ctx, depth: number): DangerHit | null {
  const on = (id: DangerId): boolean => !opts.skip?.has(id);
  const u = unwrapCommand(cmd);
  const name = baseName(u.argv[0]);
  if (name === null) return null;
  const args = u.argv.slice(1);
  const values = args.map((a) => a.value);
  const { flags, operands } = split(args);

  if (name === 'rm') {
    if (on('rm_no_preserve_root') && values.includes('--no-preserve-root')) {
      return { id: 'rm_no_preserve_root', reason: '`rm --no-preserve-root` is blocked. Delete specific paths inside the workspace instead.' };
    }
    const recursive = flags.some((f) => f === '--recursive' || (!f.startsWith('--') && (f.includes('r') || f.includes('R'))));
    const target = operands.find((o) => critical(o, opts) !== null);
    if (on('rm_critical') && recursive && target) {
      return { id: 'rm_critical', reason: `\`rm -r ${target.text}\` would delete ${critical(target, opts)}; it is blocked. Delete specific paths inside the workspace instead.` };
    }
  }
  if (on('device_redirect') && (DEVICE_WRITERS.has(name) || COPIERS.has(name))) {
    // cp/mv/install write only their last operand; tee/shred/truncate write all of them.
    const written = COPIERS.has(name) ? operands.slice(-1) : operands;
    const dev = written.find((o) => o.value !== null && isRawDevice(o.value));
    if (dev) return { id: 'device_redirect', reason: `\`${name}\` into the device ${dev.text} is blocked: it destroys the disk or hardware state.` };
  }
  if (on('mkfs') && (name.startsWith('mkfs') || name === 'mke2fs' || name === 'mkswap' || name === 'wipefs')) {
    return { id: 'mkfs', reason: `\`${name}\` formats or wipes a file system; it is blocked.` };
  }
  if (on('dd_device') && name === 'dd') {
    const of = values.find((v) => v !== null && v.startsWith('of='));
    if (of && isRawDevice(of.slice(3))) return { id: 'dd_device', reason: `\`dd ${of}\` writes a raw device; it is blocked.` };
  }
  if (on('chmod_critical') && (name === 'chmod' || name === 'chown' || name === 'chgrp')) {
    const recursive = flags.some((f) => f === '--recursive' || (!f.startsWith('--') && f.includes('R')));
    // The first operand of chmod/chown is the mode/owner, the rest are paths.
    const target = operands.slice(1).find((o) => (recursive ? critical(o, opts) !== null : normalized(o, opts) === '/'));
    if (target) return { id: 'chmod_critical', reason: `\`${name}\` on ${target.text} changes system-wide permissions; it is blocked. Change permissions of workspace files only.` };
  }
  if (on('find_delete_critical') && name === 'find') {
    const roots = operands.filter((o) => !(o.value ?? '').startsWith('('));
    const deletes = values.includes('-delete') || values.some((v, i) => (v === '-exec' || v === '-execdir') && baseName(args[i + 1]) === 'rm');
    const root = roots.find((o) => critical(o, opts) !== null);
    if (deletes && root) return { id: 'find_delete_critical', reason: `\`find ${root.text} ... -delete\` would delete system or home files; it is blocked.` };
  }
  if (on('mv_critical') && name === 'mv') {
    const source = operands.slice(0, -1).find((o) => critical(o, opts) !== null);
    if (source) return { id: 'mv_critical', reason: `moving ${source.text} is blocked: it is a system or home directory.` };
  }
  if (on('power') && POWER.has(name)) return { id: 'power', reason: `\`${name}\` is blocked.` };
  if (on('git_force_push_main') && name === 'git') {
    const hit = forcePushToMain(args);
    if (hit) return { id: 'git_force_push_main', reason: `${hit}; it is blocked. Push to a feature branch without --force, or ask the user to do it.` };
  }
  // Scripts given as strings: judge them as commands too.
  if (depth < MAX_DEPTH) {
    let script: string | null = null;
    if (SHELLS.has(name)) {
      const c = values.indexOf('-c');
      script = c >= 0 ? (values[c + 1] ?? null) : null;
    } else if (name === 'eval' && values.every((v) => v !== null)) script = values.join(' ');
    if (script !== null) return dangerIn(analyzeShell(script), opts, depth + 1);
  }
  return null;
}

/** Flags (words starting with `-` before `--`) and operands. Non-static words are operands. */
function split(args: readonly ShellWord[]): { flags: string[]; operands: ShellWord[] } {
  const flags: string[] = [];
  const operands: ShellWord[] = [];
  let ended = false;
  for (const a of args) {
    const v = a.value;
    if (!ended && v === '--') ended = true;
    else if (!ended && v !== null && v.startsWith('-') && v !== '-') flags.push(v);
    else operands.push(a);
  }
  return { flags, operands };
}

function isRawDevice(path: string): boolean {
  const p = posix.normalize(path);
  return p.startsWith('/dev/') && !HARMLESS_DEVICES.has(p) && !p.startsWith('/dev/fd/') && !p.startsWith('/dev/pts/');
}

/** The normalized absolute path a word names (`~` expanded, trailing `/` and `/*` removed), or null. */
function normalized(word: ShellWord, opts: DangerOptions): string | null {
  let v = word.value;
  if (v === null) {
    // A lone `$HOME` / `${HOME}` (optionally quoted, with `/` or `/*`) is the home directory.
    const bare = word.text.replaceAll('"', '');
    if (/^\$\{?HOME\}?(\/\*?)?$/.test(bare)) v = opts.homeDir;
    else return null;
  }
  if (v === '~' || v.startsWith('~/')) v = opts.homeDir + v.slice(1);
  if (!v.startsWith('/')) return null;
  let p = posix.normalize(v);
  while (p.length > 1 && (p.endsWith('/*') || p.endsWith('/'))) p = p.endsWith('/*') ? p.slice(0, -2) || '/' : p.slice(0, -1);
  if (p === '/*') p = '/';
  return p;
}

/** Describes the critical directory a word names (also relative to a `cd` target), or null. */
function critical(word: ShellWord, opts: Ctx): string | null {
  const direct = normalized(word, opts);
  if (direct !== null) return criticalPath(direct, opts);
  const v = word.value;
  if (v === null || v.startsWith('/') || v.startsWith('~')) return null;
  for (const cwd of opts.cwds) {
    const hit = criticalPath(normalized({ text: v, value: posix.join(cwd, v), glob: word.glob }, opts) ?? '', opts);
    if (hit) return hit;
  }
  return null;
}

function criticalPath(p: string, opts: DangerOptions): string | null {
  if (p === '') return null;
  if (p === '/') return 'the whole file system';
  if (p === posix.normalize(opts.homeDir)) return 'the home directory';
  if (SYSTEM_DIRS.has(p)) return `the system directory ${p}`;
  return null;
}

function forcePushToMain(args: readonly ShellWord[]): string | null {
  const g = parseArgs('git', GIT_GLOBAL, args);
  // Global options it cannot parse: find `push` among the words (fail closed: judge it as a push).
  const rest = g.ok ? (g.operands[0]?.value === 'push' ? g.rest : null) : (() => {
    const i = args.findIndex((a) => a.value === 'push');
    return i >= 0 ? args.slice(i + 1) : null;
  })();
  if (rest === null) return null;
  const { flags, operands } = split(rest);
  const refspecs = operands.slice(1).map((o) => o.value);
  const force = flags.some((f) => f === '--force' || f === '--force-with-lease' || f.startsWith('--force-with-lease=') || f === '--mirror' || (!f.startsWith('--') && f.includes('f'))) || refspecs.some((r) => r?.startsWith('+'));
  if (!force) return null;
  const protectedBranch = (r: string | null): boolean => {
    if (r === null) return true;
    const dst = (r.includes(':') ? r.slice(r.indexOf(':') + 1) : r).replace(/^\+/, '').replace(/^refs\/heads\//, '');
    return dst === 'main' || dst === 'master';
  };
  // No refspec pushes the current branch, which may be main: fail closed.
  if (refspecs.length === 0) return 'a force push without an explicit branch (it may rewrite main)';
  const hit = refspecs.find(protectedBranch);
  return hit === undefined ? null : `a force push to ${hit ?? 'an unknown branch'}`;
}
