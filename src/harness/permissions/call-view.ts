/**
 * Everything the chain needs to know about one call, computed once before
 * the steps run: the shell analysis (for command subjects), whether the call
 * is read-only, each path access with its path-guard verdict, and the units
 * that rules are matched against.
 */
import * as path from 'node:path';
import { analyzeShell, type ShellAnalysis } from './shell-analysis.js';
import { readOnlyVerdict } from './read-only-command.js';
import { shellPaths } from './shell-paths.js';
import { checkPath, type PathGuardOptions, type PathVerdict } from './path-guard.js';
import type { RealDirMemo } from './path-resolve.js';
import { unwrapCommand } from './command-words.js';
import { expandGlob } from './glob-expand.js';
import type { MatchUnit } from './rules.js';
import type { PathAccess, PermissionConfig, PermissionSubject } from './types.js';
import type { ShellWord } from './shell-words.js';

export interface CallView {
  readonly analysis: ShellAnalysis | null;
  readonly readOnly: boolean;
  /** Why the call is not read-only (model-facing), empty when it is. */
  readonly notReadOnlyBecause: string;
  readonly paths: readonly { readonly access: PathAccess; readonly verdict: PathVerdict }[];
  readonly units: readonly MatchUnit[];
}

const RANK = { pass: 0, ask: 1, deny: 2 } as const;

export function viewCall(subject: PermissionSubject, config: PermissionConfig, dirMemo?: RealDirMemo): CallView {
  let analysis: ShellAnalysis | null = null;
  let readOnly = subject.readOnly;
  let notReadOnlyBecause = readOnly ? '' : `\`${subject.tool}\` changes files or state`;
  let accesses: readonly PathAccess[] = subject.paths;
  let cwds: readonly (string | null)[] = [];
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

  const paths = accesses.map((access) => ({ access, verdict: judge(access, cwds, config, dirMemo) }));
  if (subject.command === undefined && wantUnits) {
    for (const { access, verdict } of paths) {
      const forms = [access.path, verdict.resolved, verdict.resolved && verdict.kind === 'inside' ? path.relative(config.workspaceRoot, verdict.resolved) : null].filter((f): f is string => typeof f === 'string' && f !== '');
      units.push({ anyForms: forms, allowForms: forms });
    }
  }
  return { analysis, readOnly, notReadOnlyBecause, paths, units };
}

/** Strictest verdict over every working directory the path may be relative to, and every file a glob matches. */
function judge(access: PathAccess, cwds: readonly (string | null)[], config: PermissionConfig, dirMemo: RealDirMemo | undefined): PathVerdict {
  const bases = basesOf(access.path, cwds, config);
  if (bases.length === 1 && !access.glob) return checkPath(access.path, access.access, guardAt(config, dirMemo, bases[0])); // the common case
  const verdicts: PathVerdict[] = [];
  for (const cwd of bases) {
    if (cwd === undefined || access.path === null) {
      verdicts.push(checkPath(null, access.access, guardAt(config, dirMemo, undefined)));
      continue;
    }
    verdicts.push(checkPath(access.path, access.access, guardAt(config, dirMemo, cwd)));
    if (access.glob) {
      const p = access.path === '~' || access.path.startsWith('~/') ? config.homeDir + access.path.slice(1) : access.path;
      const matches = expandGlob(p, cwd);
      if (matches === null) verdicts.push(checkPath(null, access.access, guardAt(config, dirMemo, undefined)));
      else for (const m of matches) verdicts.push(checkPath(m, access.access, guardAt(config, dirMemo, cwd)));
    }
  }
  return strictest(verdicts);
}

/** The path guard's options for one base directory (a literal: `{ ...guard, cwd }` is a slow path in V8). */
function guardAt(config: PermissionConfig, dirMemo: RealDirMemo | undefined, cwd: string | undefined): PathGuardOptions {
  return { workspaceRoot: config.workspaceRoot, homeDir: config.homeDir, cwd, extraRoots: config.extraRoots, protectedPaths: config.protectedPaths, fs: config.fs, dirMemo };
}

/** Working directories a relative path may be resolved against; `undefined` = unknown. */
function basesOf(p: string | null, extra: readonly (string | null)[], config: PermissionConfig): (string | undefined)[] {
  const ws = config.workspaceRoot;
  if (p === null || path.isAbsolute(p) || p === '~' || p.startsWith('~')) return [ws];
  return [ws, ...extra.map((c) => (c === null ? undefined : c === '~' || c.startsWith('~/') ? config.homeDir + c.slice(1) : path.resolve(ws, c)))];
}

function words(argv: readonly ShellWord[]): string {
  return argv.map((w) => w.value ?? w.text).join(' ');
}

function strictest(verdicts: PathVerdict[]): PathVerdict {
  return verdicts.reduce((a, b) => (RANK[b.effect] > RANK[a.effect] ? b : a));
}
