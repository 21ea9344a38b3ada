/**
 * Built-in path tables of the path guard. Both are first-match tables, so
 * they are ORDER-SENSITIVE (docs/harness-rules.md#permission-chain): a more specific, stricter entry must
 * come before its looser parent, or the parent answers first and the strict
 * entry never runs — silently. `path-guard.test.ts` proves the order matters.
 */

export interface PathRule {
  readonly id: string;
  /** Consecutive path segments to find anywhere in the path (`['.git', 'hooks']`). */
  readonly segments?: readonly string[];
  /** Or: a test on the last segment (file name). */
  readonly name?: (base: string) => boolean;
  /** Or: an absolute path, matching itself and everything below it (rules made from configuration). */
  readonly prefix?: string;
  /** Applies to writes only (reads pass through to the next tables). */
  readonly writesOnly: boolean;
  /** false = never approvable, by anyone (deny); true = a human may approve (ask). */
  readonly approvable: boolean;
  /** Model-facing explanation. */
  readonly reason: string;
}

/** Bypass-immune: checked before any allow rule, hook allow or bypass mode. */
export const DEFAULT_PROTECTED_PATHS: readonly PathRule[] = [
  { id: 'git_hooks', segments: ['.git', 'hooks'], writesOnly: true, approvable: false, reason: 'git hooks run arbitrary code on the next git command' },
  { id: 'git_config', segments: ['.git', 'config'], writesOnly: true, approvable: false, reason: 'git config can name programs git runs (core.hooksPath, core.fsmonitor, pager)' },
  { id: 'harness_hooks', segments: ['.faultline', 'hooks'], writesOnly: true, approvable: false, reason: "the harness's hook modules run as code" },
  { id: 'harness_config', segments: ['.faultline'], writesOnly: true, approvable: true, reason: "it is the harness's own configuration" },
  { id: 'git_internals', segments: ['.git'], writesOnly: true, approvable: true, reason: 'it is git internal state; use git commands instead' },
];

const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist']);
const KEY_FILES = new Set(['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk']);

/** Secrets: checked for reads and writes, inside the workspace or not (docs/harness-rules.md#result-injection). */
export const SENSITIVE_PATHS: readonly PathRule[] = [
  { id: 'ssh', segments: ['.ssh'], writesOnly: false, approvable: false, reason: 'it holds SSH keys' },
  { id: 'system_passwords', segments: ['etc', 'shadow'], writesOnly: false, approvable: false, reason: 'it holds password hashes' },
  { id: 'system_group_passwords', segments: ['etc', 'gshadow'], writesOnly: false, approvable: false, reason: 'it holds password hashes' },
  { id: 'ssh_host_key', name: (b) => /^ssh_host_.+_key$/.test(b), writesOnly: false, approvable: false, reason: 'it is a host private key' },
  { id: 'private_key', name: (b) => KEY_FILES.has(b), writesOnly: false, approvable: false, reason: 'it is a private key' },
  { id: 'aws_credentials', segments: ['.aws', 'credentials'], writesOnly: false, approvable: false, reason: 'it holds cloud credentials' },
  { id: 'gnupg', segments: ['.gnupg'], writesOnly: false, approvable: false, reason: 'it holds GPG keys' },
  { id: 'netrc', name: (b) => b === '.netrc' || b === '_netrc' || b === '.pgpass' || b === '.git-credentials', writesOnly: false, approvable: false, reason: 'it holds passwords' },
  { id: 'docker_config', segments: ['.docker', 'config.json'], writesOnly: false, approvable: false, reason: 'it holds registry credentials' },
  { id: 'kube_config', segments: ['.kube', 'config'], writesOnly: false, approvable: false, reason: 'it holds cluster credentials' },
  { id: 'cloud_cli_credentials', segments: ['.config', 'gcloud'], writesOnly: false, approvable: false, reason: 'it holds cloud credentials' },
  { id: 'azure_credentials', segments: ['.azure'], writesOnly: false, approvable: false, reason: 'it holds cloud credentials' },
  { id: 'gh_token', segments: ['.config', 'gh', 'hosts.yml'], writesOnly: false, approvable: false, reason: 'it holds a GitHub token' },
  { id: 'hub_token', segments: ['.config', 'hub'], writesOnly: false, approvable: false, reason: 'it holds a GitHub token' },
  { id: 'git_credentials_xdg', segments: ['.config', 'git', 'credentials'], writesOnly: false, approvable: false, reason: 'it holds passwords' },
  { id: 'cargo_credentials', segments: ['.cargo', 'credentials.toml'], writesOnly: false, approvable: false, reason: 'it holds a registry token' },
  { id: 'cargo_credentials_old', segments: ['.cargo', 'credentials'], writesOnly: false, approvable: false, reason: 'it holds a registry token' },
  { id: 'gem_credentials', segments: ['.gem', 'credentials'], writesOnly: false, approvable: false, reason: 'it holds a registry token' },
  { id: 'token_files', name: (b) => b === '.vault-token' || b === 'credentials.tfrc.json' || b === '.dockercfg', writesOnly: false, approvable: false, reason: 'it holds a token' },
  { id: 'password_store', segments: ['.password-store'], writesOnly: false, approvable: false, reason: 'it holds passwords' },
  { id: 'keyrings', segments: ['.local', 'share', 'keyrings'], writesOnly: false, approvable: false, reason: 'it holds passwords' },
  { id: 'npmrc', name: (b) => b === '.npmrc' || b === '.pypirc', writesOnly: false, approvable: true, reason: 'it may hold registry tokens' },
  { id: 'dotenv', name: (b) => (b === '.env' || b.startsWith('.env.')) && !ENV_TEMPLATES.has(b), writesOnly: false, approvable: true, reason: 'it holds environment secrets' },
  { id: 'key_material', name: (b) => b.endsWith('.pem') || b.endsWith('.key') || b.endsWith('.p12') || b.endsWith('.pfx'), writesOnly: false, approvable: true, reason: 'it looks like key material' },
];

/** First rule of `table` matching the path's segments, or null. */
export function firstMatch(table: readonly PathRule[], segments: readonly string[], access: 'read' | 'write'): PathRule | null {
  const base = segments[segments.length - 1] ?? '';
  for (const rule of table) {
    if (rule.writesOnly && access !== 'write') continue;
    if (rule.prefix !== undefined) {
      const abs = `/${segments.join('/')}`;
      if (abs === rule.prefix || abs.startsWith(rule.prefix.endsWith('/') ? rule.prefix : `${rule.prefix}/`)) return rule;
      continue;
    }
    if (rule.name && rule.name(base)) return rule;
    if (rule.segments && containsRun(segments, rule.segments)) return rule;
  }
  return null;
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
