/**
 * The bubblewrap command line for one bash call (docs/harness-rules.md#permission-layers "sandbox": the
 * layer orthogonal to the rules, which holds when a rule misses). The new
 * root is built from an allow list, so what is not named is absent:
 *
 *  - system directories read-only (/usr, /bin, /lib*, /etc, /opt and the
 *    directory node runs from), with /etc's secrets (shadow, host keys)
 *    replaced by empty files;
 *  - the workspace (and any extra root) writable, its protected paths
 *    (`.git/hooks`, `.git/config`, `.faultline`, and the hooks directory and
 *    included config files its repository's config names) bound read-only —
 *    each one only as what it really is (bind-target.ts): a symlink planted
 *    there is never handed to bubblewrap, which would bind the link's target
 *    (the host home, the parent of every workspace) or fail every call;
 *  - every home directory (the real one and the session's) an empty tmpfs,
 *    so `~/.ssh`, `~/.aws`, shell history and tokens are not there at all;
 *  - a fresh /tmp and /var/tmp (other tasks' workspaces are invisible);
 *  - new user, PID, IPC, UTS, cgroup and network namespaces (the network
 *    only when the task allows it), no capabilities, a new session (no
 *    terminal injection), and death with the harness process.
 */
import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { repoCodeRules } from '../permissions/repo-code-paths.js';
import { readOnlyBindTarget } from './bind-target.js';

export interface BwrapLayout {
  /** The workspace: writable, the command's working directory unless `cwd` says otherwise. */
  readonly workspace: string;
  /** More writable directories (a run's spill dir outside the workspace, a test's temp root). */
  readonly writable?: readonly string[];
  /** Home directories to hide behind an empty tmpfs (the first is also $HOME inside). */
  readonly homes: readonly string[];
  /** Keep the host network (default: only a private loopback). */
  readonly network?: boolean;
  /** Paths inside writable directories that stay read-only (bound only when they exist). */
  readonly readOnlyInside?: readonly string[];
  /** Extra directories to expose read-only (a tool installed outside the system directories). */
  readonly readOnly?: readonly string[];
  /** $HOME inside (default: the first of `homes`). */
  readonly home?: string;
}

/** Read-only system directories; each is bound only when present. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];
/** Secrets under /etc, hidden behind an empty file. */
const ETC_SECRETS = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/sudoers', '/etc/ssh/ssh_host_rsa_key', '/etc/ssh/ssh_host_ecdsa_key', '/etc/ssh/ssh_host_ed25519_key', '/etc/ssh/ssh_host_dsa_key'];
/** Relative to each writable root: code the harness or git runs later (the protected paths of protected-paths.ts). */
export const PROTECTED_INSIDE = ['.git/hooks', '.git/config', '.faultline'];

export function bwrapArgs(layout: BwrapLayout, command: string, cwd: string = layout.workspace): string[] {
  const args = ['--unshare-all', ...(layout.network ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const dir of [...SYSTEM_DIRS, ...runtimeDirs(), ...(layout.readOnly ?? [])]) if (existsSync(dir)) args.push('--ro-bind', dir, dir);
  for (const f of ETC_SECRETS) if (existsSync(f)) args.push('--ro-bind', '/dev/null', f);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  const homes = [...new Set(layout.homes.map((h) => path.resolve(h)))];
  for (const h of homes) args.push('--tmpfs', h);
  const writable = [...new Set([layout.workspace, ...(layout.writable ?? [])].map((w) => path.resolve(w)))];
  for (const w of writable) args.push('--bind', w, w);
  const bound = new Set<string>();
  const bindReadOnly = (p: string) => {
    const target = readOnlyBindTarget(p, writable);
    if (target !== null && !bound.has(target)) {
      bound.add(target);
      args.push('--ro-bind', target, target);
    }
  };
  for (const w of writable) {
    for (const rel of [...PROTECTED_INSIDE, ...(layout.readOnlyInside ?? [])]) bindReadOnly(path.join(w, rel));
    // core.hooksPath (husky's .husky) and include.path files: code and config git runs from inside the workspace.
    for (const rule of repoCodeRules(w, homes[0] ?? '')) if (rule.prefix !== undefined) bindReadOnly(rule.prefix);
  }
  args.push('--chdir', cwd);
  const home = layout.home ?? homes[0];
  if (home !== undefined) args.push('--setenv', 'HOME', home);
  args.push('--setenv', 'TMPDIR', '/tmp', '--', 'bash', '-c', command);
  return args;
}

/** Where node (and npm next to it) is installed, when that is outside the system directories. */
function runtimeDirs(): string[] {
  let prefix: string;
  try {
    prefix = path.dirname(path.dirname(realpathSync(process.execPath)));
  } catch {
    return [];
  }
  return SYSTEM_DIRS.some((d) => prefix === d || prefix.startsWith(d + '/')) ? [] : [prefix];
}
