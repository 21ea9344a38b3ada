/**
 * Secret redaction for any free text that reaches a trace, a recording or a
 * report (expectation detail, captured requests and tool output). Enforced
 * in the emitter facade and the recorder, so callers cannot write
 * unredacted text by accident (docs/harness-rules.md#telemetry-discipline rule 3).
 *
 * The shapes follow gitleaks' default rule set (config/gitleaks.toml of
 * github.com/gitleaks/gitleaks; rule ids in the comments): provider tokens by
 * their fixed prefixes, private key blocks, credentials in URLs and
 * Authorization headers, and the generic rule — a value assigned to a name
 * that says it is a secret (`PGPASSWORD=…`, `"api_key": "…"`,
 * `AWS_SECRET_ACCESS_KEY=…`, `GITHUB_PAT=…`) — plus long high-entropy
 * tokens, which is what gitleaks' entropy threshold catches. Text is always
 * redacted before it is cut, so a cut never leaves the rest of a key
 * unrecognised.
 */
const R = '[REDACTED]';

/** Fixed-prefix tokens: the whole match is the secret. */
const TOKENS: RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g, // anthropic-api-key, anthropic-admin-api-key, openai-api-key (sk-, sk-proj-)
  /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/g, // aws-access-token
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // github-pat, github-oauth, github-app-token, github-refresh-token
  /\bgithub_pat_\w{22,}/g, // github-fine-grained-pat
  /\bgl(?:pat|dt|ft|rt|soat|ffct|imt|agent|oas|ptt|cbt)-[0-9A-Za-z_.-]{20,}/g, // gitlab-* tokens
  /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, // slack-bot-token, slack-user-token, slack-app-token ...
  /\bhooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{20,}/g, // slack-webhook-url
  /\b(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99}/g, // stripe-access-token
  /\bAIza[\w-]{35}/g, // gcp-api-key
  /\bnpm_[A-Za-z0-9]{36}/g, // npm-access-token
  /\bpypi-AgEIcHlwaS5vcmc[\w-]{50,}/g, // pypi-upload-token
  /\bhf_[A-Za-z]{34}/g, // huggingface-access-token
  /\bSG\.[\w-]{22}\.[\w-]{43}/g, // sendgrid-api-token
  /\bdo[opr]_v1_[a-f0-9]{64}/g, // digitalocean-pat, -access-token, -refresh-token
  /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/g, // shopify-*
  /\bdapi[a-f0-9]{32}(?:-\d)?/g, // databricks-api-token
  /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}/g, // doppler-api-token
  /\b[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,70}/g, // hashicorp-tf-api-token
  /\bglc_[A-Za-z0-9+/]{32,400}={0,2}/g, // grafana-cloud-api-token
  /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}/g, // grafana-service-account-token
  /\blin_api_[A-Za-z0-9]{40}/g, // linear-api-key
  /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}/g, // postman-api-token
  /\bAGE-SECRET-KEY-1[0-9A-Z]{58}/g, // age-secret-key
  /\bey[A-Za-z0-9_-]{17,}\.ey[A-Za-z0-9_/-]{17,}\.[A-Za-z0-9_/-]{10,}={0,2}/g, // jwt
  // private-key: the block, or everything after its BEGIN line when the text was cut before its END.
  /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)/g,
];

/**
 * Whether any of TOKENS matches, in one pass (the same sources, and all of them have only the g flag): most
 * texts hold no token, and the 25 replaces cost 5 us a text where this test costs under 1.
 */
const ANY_TOKEN = TOKENS.every((p) => p.flags === 'g') ? new RegExp(TOKENS.map((p) => `(?:${p.source})`).join('|')) : null;

/** `prefix` kept, the rest redacted. */
const PREFIXED: RegExp[] = [
  /\b((?:Bearer|Token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi, // curl-auth-header, authorization bearer
  /\b(Basic\s+)[A-Za-z0-9+/]{8,}={0,3}/g, // curl-auth-header (Basic)
  // The password of a URL's user info: postgres://user:pw@host, https://x-access-token:ghs_…@github.com
  /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'`]*:)[^\s@/"'`]+(?=@)/gi,
];

/**
 * Names that say their value is a secret (gitleaks' generic-api-key keywords): ends in one of the words, case
 * insensitive, or — environment style, upper case — in `_KEY` or `_PAT`.
 */
const SECRET_WORDS = String.raw`(?:passw(?:or)?d|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key|credentials?|auth[_-]?key|auth|sessionid|cookie|dsn)`;
const SECRET_NAME = new RegExp(String.raw`^[\w.-]*?${SECRET_WORDS}$`, 'i');
const ENV_SECRET_NAME = /^[A-Z0-9_]*_(?:KEY|PAT)$/;
/**
 * A secret name (quoted or not), a separator (= : := =>), then a quoted or bare value (a value an earlier
 * rule already replaced is read whole, so it is left as it is, not taken for `[REDACTED` and redacted again). The name is part of the
 * pattern, so text around a name that is not a secret is never consumed (`a.txt: password=…` still matches).
 */
function assignment(name: string, flags: string): RegExp {
  return new RegExp(
    String.raw`((?<![\w.-])(["']?)(${name})\2[ \t]*(?::=|=>|=|:)[ \t]*)(?:(["'\x60])((?:(?!\4)[^\n\\]|\\.){1,500})\4|(\[REDACTED\]|[^\s"'\x60,;&)}\]]{3,}))`,
    flags,
  );
}
const ASSIGNMENTS = [assignment(String.raw`[\w.-]*?${SECRET_WORDS}`, 'gi'), assignment('[A-Z0-9_]*_(?:KEY|PAT)', 'g')];
/**
 * Text without any of these can match none of PREFIXED or ASSIGNMENTS: each of them needs a Bearer/Token/Basic
 * word, a `://` (a URL's user info), a secret word in the name, or an upper-case `_KEY`/`_PAT` (a case-insensitive
 * test finds all of them). Most texts hold none, and the five replaces cost ~0.7 us a text where this test costs a
 * fraction: they run only when it matches.
 */
const MAY_ASSIGN_OR_PREFIX = new RegExp(String.raw`bearer|token|basic|:\/\/|_key|_pat|${SECRET_WORDS}`, 'i');

/** Values that are not secrets: placeholders, variables, what we wrote ourselves. */
const NOT_A_VALUE = /^(?:\[REDACTED\]|\*+|\$\{?\w+\}?|<[^>]*>|%\w+%|true|false|null|none|undefined)$/i;

/** Long tokens mixing cases and digits with high entropy (gitleaks' entropy threshold for its generic rule). */
const TOKEN_LIKE = /[A-Za-z0-9+_=-]{40,}/g; // not '/': long paths are not tokens
const MIN_ENTROPY = 4.3;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || ENV_SECRET_NAME.test(name);
}

export function redact(text: string): string {
  let out = text;
  if (ANY_TOKEN === null || ANY_TOKEN.test(out)) for (const pattern of TOKENS) out = out.replace(pattern, R);
  if (MAY_ASSIGN_OR_PREFIX.test(out)) out = assignmentsAndPrefixes(out);
  out = out.replace(TOKEN_LIKE, (token) => (looksRandom(token) ? R : token));
  return out;
}

function assignmentsAndPrefixes(text: string): string {
  let out = text;
  for (const pattern of PREFIXED) out = out.replace(pattern, (_m, prefix: string) => `${prefix}${R}`);
  for (const pattern of ASSIGNMENTS) {
    out = out.replace(pattern, (match, head: string, _q: string, _name: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined) => {
      const value = quoted ?? bare ?? '';
      if (NOT_A_VALUE.test(value)) return match;
      return quote === undefined ? `${head}${R}` : `${head}${quote}${R}${quote}`;
    });
  }
  return out;
}

/** A JSON value with every field whose name says it is a secret replaced, and every string redacted. */
export function redactJson<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactJson(v)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, isSecretName(k) && (typeof v === 'string' || typeof v === 'number') && !NOT_A_VALUE.test(String(v)) ? R : redactJson(v)]),
    ) as T;
  }
  return value;
}

/** Redact, then cut to `max` characters (marking the cut). */
export function redactAndCap(text: string, max: number): string {
  const clean = redact(text);
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

function looksRandom(token: string): boolean {
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/[0-9]/.test(token)) return false;
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  let entropy = 0;
  for (const n of counts.values()) {
    const p = n / token.length;
    entropy -= p * Math.log2(p);
  }
  return entropy >= MIN_ENTROPY;
}
