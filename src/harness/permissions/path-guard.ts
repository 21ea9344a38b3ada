/**
 * Path guard (docs/harness-rules.md#permission-chain step 4, docs/harness-rules.md#permission-chain): resolves symlinks and classifies one
 * path access. Order of the checks (first decisive answer wins, strictest
 * first): protected (bypass-immune) -> sensitive -> inside a workspace root
 * -> system directory -> outside. The lexical path and the symlink-resolved
 * path are both classified and the stricter answer is kept, so a link inside
 * the workspace pointing out of it is judged by where it points, and a
 * protected name reached through a link is still protected.
 */
import * as path from 'node:path';
import { DEFAULT_PROTECTED_PATHS, SENSITIVE_PATHS, firstMatch, type PathRule } from './protected-paths.js';
import { hasDotDot, isWithin, physicalPath, realFs, resolveReal, type PathFs, type RealDirMemo } from './path-resolve.js';
import { isRuleOn } from './rule-switches.js';

export type PathKind = 'inside' | 'outside' | 'system' | 'sensitive' | 'protected' | 'device' | 'unknown';
export type PathEffect = 'pass' | 'ask' | 'deny';

export interface PathVerdict {
  readonly kind: PathKind;
  readonly effect: PathEffect;
  /** `protected_path` verdicts are bypass-immune; `path_guard` ones are not. */
  readonly source: 'protected_path' | 'path_guard';
  /** Stable id of the built-in rule (`protected:git_hooks`, `sensitive:dotenv`, `system`, `outside`...). */
  readonly ruleId: string;
  /** Real absolute path, or null when the path is not static. */
  readonly resolved: string | null;
  /** Model-facing explanation, empty for `pass`. */
  readonly reason: string;
  /**
   * An ask that only explicit consent lifts (a human, a hook, an allow rule),
   * never a mode: a path computed at run time, which may be a secret or
   * outside the workspace (the OS sandbox softens it). Absent = a soft ask
   * (bypass lifts it).
   */
  readonly firm?: boolean;
}

/** What touches the path, for the reason text: `` `tee` `` and whether its write is only possible (an opaque program). */
export interface AccessVia {
  readonly via?: string;
  readonly mayWrite?: boolean;
}

export interface PathGuardOptions {
  /** Absolute workspace root: reads and writes inside it pass the guard. */
  readonly workspaceRoot: string;
  readonly homeDir: string;
  /** Base for relative paths (default: workspaceRoot). */
  readonly cwd?: string;
  /** More directories treated like the workspace (e.g. a run's spill directory). */
  readonly extraRoots?: readonly string[];
  /** Protected table (order-sensitive); default DEFAULT_PROTECTED_PATHS. */
  readonly protectedPaths?: readonly PathRule[];
  readonly fs?: PathFs;
  /** Parent-directory real paths shared within one batch of read-only calls (see RealDirMemo); absent = none. */
  readonly dirMemo?: RealDirMemo;
}

const SYSTEM_DIRS = ['/etc', '/usr', '/bin', '/sbin', '/boot', '/dev', '/proc', '/sys', '/var', '/lib', '/lib32', '/lib64', '/opt', '/root', '/snap', '/srv', '/System', '/Library', '/private/etc', '/private/var'];
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty', '/dev/random', '/dev/urandom']);

const RANK: Record<PathEffect, number> = { pass: 0, ask: 1, deny: 2 };
const NO_VIA: AccessVia = Object.freeze({});

/** Classify one access. `p` null means the path is not static (e.g. `$OUT`): unknown. */
export function checkPath(p: string | null, access: 'read' | 'write', opts: PathGuardOptions, how: AccessVia = NO_VIA): PathVerdict {
  if (p === null || p === '' || (p.startsWith('~') && p !== '~' && !p.startsWith('~/'))) {
    const what = p === null ? 'a path computed at run time' : `the path ${p}`;
    const by = how.via ? ` (${how.via} ${access === 'write' ? (how.mayWrite ? 'may write it' : 'writes it') : 'reads it'})` : '';
    return { kind: 'unknown', effect: 'ask', source: 'path_guard', ruleId: 'unknown_path', resolved: null, reason: `${what}${by} cannot be checked before running; use a literal path inside the workspace.`, firm: true };
  }
  const fs = opts.fs ?? realFs;
  const expanded = p === '~' || p.startsWith('~/') ? opts.homeDir + p.slice(1) : p;
  const base = opts.cwd ?? opts.workspaceRoot;
  const lexical = path.resolve(base, expanded);
  // `..` after a symlink is resolved by the kernel from the link's target: judge that path, not the lexical one.
  const physical = isRuleOn('physical_dotdot') && (hasDotDot(expanded) || hasDotDot(base)) ? physicalPath(base, expanded, fs) : lexical;
  const roots = rootsOf(opts);
  if (opts.dirMemo !== undefined && !opts.fs) seedRoot(opts.dirMemo, opts.workspaceRoot);
  const resolved = resolveReal(physical, fs, opts.dirMemo);
  const a = classify(lexical, access, roots, opts, how);
  // No symlink on the way: both verdicts would be the same classification of the same path.
  if (resolved === lexical) return a;
  const b = classify(resolved, access, roots, opts, how);
  // Keep the stricter; on a tie prefer the verdict about the real target.
  const pick = RANK[a.effect] > RANK[b.effect] ? a : b;
  return { ...pick, resolved };
}

/** Each root lexically and symlink-resolved (the workspace root's real path is cached, see realRoot). */
function rootsOf(opts: PathGuardOptions): readonly string[] {
  if (!opts.fs && (opts.extraRoots === undefined || opts.extraRoots.length === 0)) return realRoot(opts.workspaceRoot);
  return [opts.workspaceRoot, ...(opts.extraRoots ?? [])].flatMap((r) => {
    const abs = path.resolve(r);
    return opts.fs ? [abs, resolveReal(abs, opts.fs)] : realRoot(r);
  });
}

/**
 * Real path of a workspace root, cached: roots are resolved on every check and
 * do not move during a session (a root that is swapped for a symlink mid-run
 * is outside this guard's threat model; the directories under it are cached
 * only within one batch of read-only calls, see RealDirMemo).
 */
const rootCache = new Map<string, readonly [string, string]>();
function realRoot(root: string): readonly [string, string] {
  let pair = rootCache.get(root);
  if (pair === undefined) {
    const abs = path.resolve(root);
    pair = [abs, resolveReal(abs)];
    if (rootCache.size >= 64) rootCache.clear();
    rootCache.set(root, pair);
  }
  return pair;
}

/**
 * The session's own resolution of its workspace root (pipeline/session-root.ts: realpath(3) of the directory,
 * made after the workspace exists), taken as realRoot's answer instead of resolving the root a second time: for
 * an existing directory both give the same real path. Only fills a missing entry; the pair is what realRoot
 * would have stored.
 */
export function noteRealRoot(root: string, real: string): void {
  if (rootCache.has(root)) return;
  if (rootCache.size >= 64) rootCache.clear();
  rootCache.set(root, [path.resolve(root), real]);
}

/**
 * The workspace root's real path (realRoot's cached pair) as the memo's answer for the root directory, so a
 * file directly in the workspace costs one lstat of its own, not a realpath(3) of the root — which readlinks
 * every component from `/` — on every check. No new trust: the roots are already taken from that cache.
 */
function seedRoot(memo: RealDirMemo, root: string): void {
  const [abs, real] = realRoot(root);
  if (!memo.has(abs)) memo.set(abs, real);
}

/** `writing X` or, with a via, `` `tee` writes X, which `` — the subject of the reason sentence. */
function subject(abs: string, access: 'read' | 'write', how: AccessVia): string {
  if (!how.via) return `${access === 'write' ? 'writing' : 'reading'} ${abs}`;
  return `${how.via} ${access === 'write' ? (how.mayWrite ? 'may write' : 'writes') : 'reads'} ${abs}, which`;
}

function classify(abs: string, access: 'read' | 'write', roots: readonly string[], opts: PathGuardOptions, how: AccessVia): PathVerdict {
  const segments = abs.split(path.sep).filter(Boolean);
  const prot = firstMatch(opts.protectedPaths ?? DEFAULT_PROTECTED_PATHS, segments, access);
  if (prot) {
    const what = subject(abs, 'write', how);
    const reason = prot.approvable ? `${what} needs approval in every mode: ${prot.reason}.` : `${what} is not allowed in any mode: ${prot.reason}.`;
    return { kind: 'protected', effect: prot.approvable ? 'ask' : 'deny', source: 'protected_path', ruleId: `protected:${prot.id}`, resolved: abs, reason };
  }
  const secret = firstMatch(SENSITIVE_PATHS, segments, access);
  if (secret) {
    const what = subject(abs, access, how);
    const reason = secret.approvable ? `${what} needs approval: ${secret.reason}.` : `${what} is refused: ${secret.reason}. Do not try to reach it another way.`;
    return { kind: 'sensitive', effect: secret.approvable ? 'ask' : 'deny', source: 'path_guard', ruleId: `sensitive:${secret.id}`, resolved: abs, reason };
  }
  if (HARMLESS_DEVICES.has(abs) || abs.startsWith('/dev/fd/')) {
    return { kind: 'device', effect: 'pass', source: 'path_guard', ruleId: 'device', resolved: abs, reason: '' };
  }
  if (roots.some((r) => within(abs, r))) {
    return { kind: 'inside', effect: 'pass', source: 'path_guard', ruleId: 'inside', resolved: abs, reason: '' };
  }
  const system = SYSTEM_DIRS.some((d) => within(abs, d));
  if (access === 'write') {
    return { kind: system ? 'system' : 'outside', effect: 'deny', source: 'path_guard', ruleId: system ? 'system' : 'outside', resolved: abs, reason: `${subject(abs, 'write', how)} is refused: it is outside the workspace${system ? ' (a system path)' : ''}, and writes outside the workspace are refused in every mode. Write inside the workspace instead.` };
  }
  return { kind: system ? 'system' : 'outside', effect: 'ask', source: 'path_guard', ruleId: system ? 'system' : 'outside', resolved: abs, reason: `${subject(abs, 'read', how)} needs approval: it is outside the workspace.` };
}

/**
 * `isWithin` for the normalized absolute paths the guard compares (path.resolve
 * and realpath output, the fixed tables): a prefix test that gives exactly
 * `isWithin`'s answer, including its reading of a `..name` child as outside,
 * without path.relative's work. Any other platform takes `isWithin` itself.
 */
function within(p: string, root: string): boolean {
  if (path.sep !== '/') return isWithin(p, root);
  if (p === root) return true;
  const prefix = root.endsWith('/') ? root : root + '/';
  return p.startsWith(prefix) && !p.startsWith('..', prefix.length);
}
