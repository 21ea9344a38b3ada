/**
 * Secret redaction for any free text that reaches a trace (expectation detail,
 * captured tool input/output). Enforced in the emitter facade, so callers
 * cannot write unredacted text by accident (seed §14.5 rule 3).
 */
const PATTERNS: RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}\b/g, // Anthropic / OpenAI keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, // Slack tokens
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{16,}/gi,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b((?:api[_-]?key|secret|password|passwd|token)\s*[=:]\s*)(["']?)[^\s"']{6,}\2/gi,
];

export function redact(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match, prefix?: string) =>
      typeof prefix === 'string' && match.startsWith(prefix) && prefix.length < match.length
        ? `${prefix}[REDACTED]`
        : '[REDACTED]',
    );
  }
  return out;
}

/** Redact, then cut to `max` characters (marking the cut). */
export function redactAndCap(text: string, max: number): string {
  const clean = redact(text);
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}
