/**
 * Paths in the workspace that the repository's own configuration turns into
 * code git runs: `core.hooksPath` (`.husky` in many JavaScript projects: a
 * file written there runs on the next commit, exactly like `.git/hooks`) and
 * files the config includes (`include.path`, `includeIf.*.path`: writing one
 * is writing git's configuration). They are protected like `.git/hooks` and
 * `.git/config` (docs/harness-rules.md#permission-chain: places that run code accept no automatic
 * approval). Read from the workspace repository's `.git/config`, which the
 * agent cannot write, and re-read when it changes.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import type { PathRule } from './protected-paths.js';

interface Cached {
  readonly stamp: string;
  readonly rules: readonly PathRule[];
}

const cache = new Map<string, Cached>();

/** Protected-path rules for the code paths the repository at `workspaceRoot` configures (empty when none). */
export function repoCodeRules(workspaceRoot: string, homeDir: string): readonly PathRule[] {
  const configPath = path.join(workspaceRoot, '.git', 'config');
  let st: nodeFs.Stats | undefined;
  try {
    st = nodeFs.statSync(configPath, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  if (st === undefined || !st.isFile()) return [];
  const stamp = `${st.mtimeMs}:${st.size}:${st.ino}:${homeDir}`;
  const hit = cache.get(configPath);
  if (hit?.stamp === stamp) return hit.rules;
  let text = '';
  try {
    text = nodeFs.readFileSync(configPath, 'utf8');
  } catch {
    text = '';
  }
  const rules = rulesOf(text, workspaceRoot, path.dirname(configPath), homeDir);
  if (cache.size > 64) cache.clear();
  cache.set(configPath, { stamp, rules });
  return rules;
}

function rulesOf(text: string, worktree: string, gitDir: string, homeDir: string): PathRule[] {
  const rules: PathRule[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s+|\s+$/g, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[([^\]\s"]+)(?:\s+"[^"]*")?\]/.exec(line);
    if (head) {
      section = (head[1] as string).toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = (kv[1] as string).toLowerCase();
    const value = unquote(kv[2] as string);
    if (value === '') continue;
    if (section === 'core' && key === 'hookspath') {
      rules.push({ id: 'repo_hooks_path', prefix: resolve(worktree, value, homeDir), writesOnly: true, approvable: false, reason: `the repository's core.hooksPath makes the files there git hooks, which run arbitrary code on the next git command` });
    }
    if ((section === 'include' || section === 'includeif') && key === 'path') {
      rules.push({ id: 'repo_included_config', prefix: resolve(gitDir, value, homeDir), writesOnly: true, approvable: false, reason: "the repository's git config includes this file, so writing it is writing git config (which can name programs git runs)" });
    }
  }
  return rules;
}

function resolve(base: string, value: string, homeDir: string): string {
  return path.resolve(base, value.startsWith('~/') ? homeDir + value.slice(1) : value);
}

function unquote(v: string): string {
  const noComment = v.replace(/\s+[#;].*$/, '');
  return noComment.length >= 2 && noComment.startsWith('"') && noComment.endsWith('"') ? noComment.slice(1, -1) : noComment;
}
