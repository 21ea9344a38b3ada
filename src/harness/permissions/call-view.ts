/**
 * Everything the chain needs to know about one call, computed once before
 * the steps run: the shell analysis (for command subjects), whether the call
 * is read-only, each path access with its path-guard verdict, and the units
 * that rules are matched against.
 */
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeShell, type ShellAnalysis } from './shell-analysis.js';
import { readOnlyVerdict } from './read-only-command.js';
import { shellPaths } from './shell-paths.js';
import { checkPath, type AccessVia, type PathGuardOptions, type PathVerdict } from './path-guard.js';
import { hasDotDot, type RealDirMemo } from './path-resolve.js';
import { baseName, unwrapCommand } from './command-words.js';
import { expandGlob } from './glob-expand.js';
import { treeVerdicts } from './tree-reads.js';
import { repoCodeRules } from './repo-code-paths.js';
import { DEFAULT_PROTECTED_PATHS } from './protected-paths.js';
import { untrustedRepository } from './git-repo.js';
import { isRuleOn } from './rule-switches.js';
import type { MatchUnit } from './rules.js';
import type { PathAccess, PermissionConfig, PermissionSubject } from './types.js';
import { packedMap } from '../packed-map.js';
import type { ShellWord } from './shell-words.js';

export interface CallView {
  readonly analysis: ShellAnalysis | null;
  readonly readOnly: boolean;
  /** Why the call is not read-only (model-facing), empty when it is. */
  readonly notReadOnlyBecause: string;
  readonly paths: readonly { readonly access: PathAccess; readonly verdict: PathVerdict }[];
  readonly units: readonly MatchUnit[];
  /** Set when a git command would use a repository whose configuration the agent could have written. */
  readonly untrustedGit: string | null;
  /** Set when part of the command runs code faultline cannot see (command-opaque.ts): what runs. */
  readonly unseenCode: string | null;
}

const RANK = { pass: 0, ask: 1, deny: 2 } as const;
/** Shared: a file tool's path names no command, and the common case must not allocate. */
const NO_VIA: AccessVia = Object.freeze({});

export function viewCall(subject: PermissionSubject, config: PermissionConfig, dirMemo?: RealDirMemo): CallView {
  let analysis: ShellAnalysis | null = null;
  let readOnly = subject.readOnly;
  let notReadOnlyBecause = readOnly ? '' : `\`${subject.tool}\` changes files or state`;
  let accesses: readonly PathAccess[] = subject.paths;
  let cwds: readonly (string | null)[] = [];
  let bases: readonly (string | undefined)[] = [config.workspaceRoot];
  let untrustedGit: string | null = null;
  let unseenCode: string | null = null;
  // Units are read only by rule matching (rules.ts): with no rules they cannot change an answer, so they are not built.
  const wantUnits = config.rules !== undefined && config.rules.length > 0;
  const units: MatchUnit[] = [];

  if (subject.command !== undefined) {
    analysis = analyzeShell(subject.command);
    const v = readOnlyVerdict(analysis);
    readOnly = v.readOnly;
    notReadOnlyBecause = v.reason;
    if (analysis.ok) {
      const sp = shellPaths(analysis);
      accesses = [...subject.paths, ...sp.accesses];
      cwds = sp.cwds;
      unseenCode = sp.unseenCode;
      if (cwds.length > 0) bases = workingDirs(cwds, config);
      if (sp.gitDirs.length > 0 && isRuleOn('git_repository')) untrustedGit = gitTrust(sp.gitDirs, bases, config);
      if (isRuleOn('config_sources')) {
        const rc = packageManagerConfig(analysis, bases, config.workspaceRoot);
        if (rc !== null) {
          // Its effects follow a file the model can write: code faultline cannot see, like a Makefile.
          if (readOnly) notReadOnlyBecause = rc;
          readOnly = false;
          unseenCode ??= rc;
        }
      }
      if (wantUnits) {
        for (const cmd of analysis.commands) {
          const written = words(cmd.argv);
          units.push({ anyForms: [written, words(unwrapCommand(cmd).argv)], allowForms: [written] });
        }
      }
    } else if (wantUnits) {
      // Unparseable: deny/ask rules still see the raw text; no allow rule can cover it.
      units.push({ anyForms: [subject.command.trim()], allowForms: [] });
    }
  }

  // `shopt -s globstar|nocaseglob|extglob|...` changes what every glob of the command matches: none can be expanded here.
  const globShopt = analysis?.ok === true && isRuleOn('glob_semantics') && analysis.commands.some((c) => baseName(unwrapCommand(c).argv[0]) === 'shopt');
  // Hooks and included config files the repository itself configures are protected like .git/hooks. Those rules
  // guard writes only (writesOnly), so a call that only reads is judged the same without them: the stat of
  // .git/config they cost is skipped.
  const repoRules = accesses.some((a) => accessKind(a, config) === 'write') && isRuleOn('config_sources') ? repoCodeRules(config.workspaceRoot, config.homeDir) : [];
  const cfg = repoRules.length > 0 ? { ...config, protectedPaths: [...repoRules, ...(config.protectedPaths ?? DEFAULT_PROTECTED_PATHS)] } : config;
  const paths = packedMap(accesses, (access) => ({ access, verdict: judge(access, bases, cfg, dirMemo, globShopt) }));
  if (subject.command !== undefined && !isRuleOn('operand_paths')) paths.splice(0, paths.length, ...paths.filter((p) => p.access.via === undefined || p.access.via.startsWith('the redirection')));
  if (subject.command === undefined && wantUnits) {
    for (const { access, verdict } of paths) {
      const forms = [access.path, verdict.resolved, verdict.resolved && verdict.kind === 'inside' ? path.relative(config.workspaceRoot, verdict.resolved) : null].filter((f): f is string => typeof f === 'string' && f !== '');
      units.push({ anyForms: forms, allowForms: forms });
    }
  }
  return { analysis, readOnly, notReadOnlyBecause, paths, units, untrustedGit, unseenCode };
}

/** Config files a package manager reads from the project it runs in, by manager. */
const PM_CONFIG: Readonly<Record<string, readonly string[]>> = {
  npm: ['.npmrc'], npx: ['.npmrc'], pnpm: ['.npmrc', 'pnpm-workspace.yaml'], yarn: ['.yarnrc', '.yarnrc.yml', '.npmrc'],
};

/**
 * A package manager's "read-only" sub-command (`npm ls`, `npm view`) is read-only only with its defaults: the
 * repository's `.npmrc` (or `.yarnrc`) can move its cache, logs and prefix anywhere, name a shell or a
 * user config. When such a file exists in the workspace, or on the way from a working directory up to
 * the workspace root, the command is judged as not read-only, and says why.
 */
function packageManagerConfig(analysis: Extract<ShellAnalysis, { ok: true }>, bases: readonly (string | undefined)[], root: string): string | null {
  for (const cmd of analysis.commands) {
    const name = baseName(unwrapCommand(cmd).argv[0]);
    const files = name === null ? undefined : PM_CONFIG[name];
    if (files === undefined) continue;
    for (const base of bases) {
      for (let d = base ?? root; d === root || d.startsWith(root + path.sep); d = path.dirname(d)) {
        for (const f of files) if (existsSync(path.join(d, f))) return `\`${name}\` reads ${path.relative(root, path.join(d, f)) || f} from the repository, which can send its cache, logs or prefix anywhere, so it is not read-only here`;
        if (d === root) break;
      }
    }
  }
  return null;
}

/** The first git working directory (relative to the workspace or a `cd` target) whose repository is not trusted. */
function gitTrust(gitDirs: readonly (string | null)[], bases: readonly (string | undefined)[], config: PermissionConfig): string | null {
  for (const dir of gitDirs) {
    for (const base of basesOf(dir, bases, config)) {
      if (base === undefined || dir === null) return 'git runs in a directory computed at run time, so the repository it uses cannot be checked';
      const why = untrustedRepository(path.resolve(base, dir === '~' || dir.startsWith('~/') ? config.homeDir + dir.slice(1) : dir));
      if (why) return why;
    }
  }
  return null;
}

/** Strictest verdict over every working directory the path may be relative to, and every file a glob matches. */
function judge(access: PathAccess, workingBases: readonly (string | undefined)[], config: PermissionConfig, dirMemo: RealDirMemo | undefined, globShopt = false): PathVerdict {
  const kind = accessKind(access, config);
  const how: AccessVia = access.via === undefined ? NO_VIA : { via: access.via, mayWrite: access.access === 'any' };
  const procPath = isRuleOn('working_dirs') ? procView(access.path) : access.path;
  if (procPath !== access.path) access = { ...access, path: procPath, glob: access.glob && procPath !== null, pattern: access.pattern === undefined || procPath === null ? undefined : procView(access.pattern) ?? undefined };
  const bases = basesOf(access.path, workingBases, config);
  if (bases.length === 1 && !access.glob && access.tree === undefined) return soften(checkPath(access.path, kind, guardAt(config, dirMemo, bases[0]), how), config); // the common case
  const verdicts: PathVerdict[] = [];
  for (const cwd of bases) {
    if (cwd === undefined || access.path === null) {
      const v = checkPath(null, kind, guardAt(config, dirMemo, undefined), how);
      // The path is literal but the directory it is relative to is not: say so, or the model rewrites the wrong part.
      verdicts.push(access.path === null ? v : { ...v, reason: `${access.via ?? 'The command'} uses ${access.path} relative to a directory only known when the command runs (\`cd\` to a computed target such as \`~-\`, \`-\` or a glob, or \`find -execdir\`), so it cannot be checked before running; \`cd\` to a literal directory inside the workspace, or use paths from the workspace root.` });
      continue;
    }
    const first = verdicts.length;
    verdicts.push(checkPath(access.path, kind, guardAt(config, dirMemo, cwd), how));
    if (access.glob) {
      const raw = isRuleOn('glob_semantics') ? access.pattern : access.path;
      const p = raw === undefined ? null : raw === '~' || raw.startsWith('~/') ? config.homeDir + raw.slice(1) : raw;
      const matches = p === null || globShopt ? null : isRuleOn('glob_semantics') ? expandGlob(p, cwd) : legacyExpand(p, cwd);
      if (matches === null) {
        const v = checkPath(null, kind, guardAt(config, dirMemo, undefined), how);
        verdicts.push(globShopt ? { ...v, reason: `${access.via ?? 'The command'} uses the glob ${access.path} after \`shopt\` changes how bash expands globs, so the files it matches cannot be checked before running; name the files, or drop the \`shopt\`.` } : v);
      }
      else for (const m of matches) verdicts.push(checkPath(m, kind, guardAt(config, dirMemo, cwd), how));
    }
    if (access.tree && isRuleOn('tree_reads')) {
      const check = (p: string) => checkPath(p, kind, guardAt(config, dirMemo, cwd), how);
      for (const v of verdicts.slice(first)) verdicts.push(...treeVerdicts(v, access.tree, check, access.via ?? 'The command'));
    }
  }
  return soften(strictest(verdicts), config);
}

/** An opaque program's operand: a write unless the sandbox confines its writes (then a read). */
function accessKind(access: PathAccess, config: PermissionConfig): 'read' | 'write' {
  return access.access === 'any' ? (config.sandboxed ? 'read' : 'write') : access.access;
}

/** Inside the sandbox a write the rules cannot place cannot land outside the workspace: the ask becomes soft. */
function soften(v: PathVerdict, config: PermissionConfig): PathVerdict {
  return v.firm && config.sandboxed ? { ...v, firm: false } : v;
}

/**
 * The expansion before glob_semantics (rule switched off, tests only): every
 * `[...]` read up to the first `]`, so `[[:alpha:]]` was mistranslated.
 */
function legacyExpand(pattern: string, cwd: string): string[] | null {
  const re = (seg: string) => new RegExp(`^${seg.replace(/[.+^${}()|\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`);
  const parts = path.resolve(cwd, pattern).split('/').filter(Boolean);
  let current = ['/'];
  for (const seg of parts) {
    const next: string[] = [];
    for (const dir of current) {
      if (!/[*?[]/.test(seg)) next.push(path.join(dir, seg));
      else {
        try {
          for (const n of readdirSync(dir)) if (re(seg).test(n)) next.push(path.join(dir, n));
        } catch {
          // unreadable directory: no match
        }
      }
    }
    current = next;
  }
  return current;
}

/** The path guard's options for one base directory (a literal: `{ ...guard, cwd }` is a slow path in V8). */
function guardAt(config: PermissionConfig, dirMemo: RealDirMemo | undefined, cwd: string | undefined): PathGuardOptions {
  return { workspaceRoot: config.workspaceRoot, homeDir: config.homeDir, cwd, extraRoots: config.extraRoots, protectedPaths: config.protectedPaths, fs: config.fs, dirMemo };
}

/**
 * `/proc/self/cwd/x` is x in the working directory of the process that opens
 * it: bash's, not this one's (which is what realpath here would answer), so
 * it is judged as the relative path `./x`. `/proc/self/root/x` is `/x`.
 * Another process's directories (`/proc/123/cwd`) are unknown.
 */
function procView(p: string | null): string | null {
  if (p === null || !p.startsWith('/proc/')) return p;
  const m = /^\/proc\/(self|thread-self|[0-9]+)\/(cwd|root)(\/.*)?$/.exec(p);
  if (!m) return p;
  if (m[1] !== 'self' && m[1] !== 'thread-self') return null;
  const rest = m[3] ?? '';
  return m[2] === 'root' ? rest || '/' : `.${rest}`;
}

/** Working directories a relative path may be resolved against (see workingDirs); an absolute or home path has one. */
function basesOf(p: string | null, bases: readonly (string | undefined)[], config: PermissionConfig): readonly (string | undefined)[] {
  if (p === null || path.isAbsolute(p) || p.startsWith('~')) return [config.workspaceRoot];
  return bases;
}

const MAX_BASES = 32;

/**
 * Every directory the command may be in when it uses a relative path: the
 * workspace, and each `cd`/`env -C`/`git -C` target resolved against every
 * directory before it (`cd src && cd door` is src/door, not door), since the
 * judge does not follow which part of a compound command runs where.
 * `undefined` = a directory computed at run time (or too many to judge).
 */
function workingDirs(cwds: readonly (string | null)[], config: PermissionConfig): (string | undefined)[] {
  const ws = config.workspaceRoot;
  const out: (string | undefined)[] = [ws];
  const seen = new Set<string>([ws]);
  const add = (d: string) => {
    if (!seen.has(d)) {
      seen.add(d);
      out.push(d);
    }
  };
  for (const c of cwds) {
    if (c === null) {
      if (!out.includes(undefined)) out.push(undefined);
      continue;
    }
    const from = isRuleOn('working_dirs') ? out.filter((b): b is string => b !== undefined) : [ws];
    for (const b of from) {
      const abs = c === '~' || c.startsWith('~/') ? config.homeDir + c.slice(1) : path.isAbsolute(c) ? c : `${b}/${c}`;
      // bash's `cd` is logical (`cd link/..` stays put) but later paths resolve physically: judge both.
      add(path.resolve(abs));
      if (hasDotDot(abs) && isRuleOn('physical_dotdot')) add(abs);
    }
    if (out.length > MAX_BASES) return [...out.slice(0, MAX_BASES), undefined];
  }
  return out;
}

function words(argv: readonly ShellWord[]): string {
  return argv.map((w) => w.value ?? w.text).join(' ');
}

/** A firm ask (only explicit consent lifts it) is stricter than a soft one. */
const rank = (v: PathVerdict): number => RANK[v.effect] * 2 + (v.firm === true ? 1 : 0);

function strictest(verdicts: PathVerdict[]): PathVerdict {
  return verdicts.reduce((a, b) => (rank(b) > rank(a) ? b : a));
}
