/**
 * Matching configured rules against a call. A call is split into units: the
 * sub-commands of a bash command, or the paths of a file tool. A deny or ask
 * rule matches when it matches ANY unit; an allow covers the call only when
 * EVERY unit is matched by some allow rule — so allowing `ls*` never allows
 * `ls && rm -rf x` (docs/harness-rules.md#shell-parsing).
 */
import type { PermissionRule, RuleEffect } from './types.js';

export interface MatchUnit {
  /** Forms a deny/ask rule may match (e.g. the command as written and with `sudo`/`env` peeled off). */
  readonly anyForms: readonly string[];
  /** Forms an allow rule may match (only the command as written: allowing `ls*` does not allow `sudo ls`). */
  readonly allowForms: readonly string[];
}

const compiled = new Map<string, RegExp>();

/** `*` matches any run of characters; everything else is literal. (A regex over the rule pattern, not over shell text.) */
export function globMatch(pattern: string, text: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    const body = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    re = new RegExp(`^${body}$`, 's');
    compiled.set(pattern, re);
  }
  return re.test(text);
}

/** `*`, the exact name, or a name glob such as `mcp__github__*` (every tool of one MCP server). */
function toolMatches(rule: PermissionRule, tool: string): boolean {
  return rule.tool === '*' || rule.tool === tool || (rule.tool.includes('*') && globMatch(rule.tool, tool));
}

/** First deny/ask rule (in configured order) that matches any unit of the call. */
export function findMatchingRule(
  rules: readonly PermissionRule[],
  effect: Exclude<RuleEffect, 'allow'>,
  tool: string,
  units: readonly MatchUnit[],
): PermissionRule | null {
  for (const rule of rules) {
    if (rule.effect !== effect || !toolMatches(rule, tool)) continue;
    if (rule.pattern === undefined) return rule;
    const pattern = rule.pattern;
    if (units.some((u) => u.anyForms.some((f) => globMatch(pattern, f)))) return rule;
  }
  return null;
}

/**
 * The allow rule covering the call, or null. With several units each may be
 * covered by a different allow rule; the first unit's rule is reported.
 * A call with no units is covered only by a rule without a pattern.
 */
export function findCoveringAllow(rules: readonly PermissionRule[], tool: string, units: readonly MatchUnit[]): PermissionRule | null {
  const allows = rules.filter((r) => r.effect === 'allow' && toolMatches(r, tool));
  const whole = allows.find((r) => r.pattern === undefined);
  if (whole) return whole;
  if (units.length === 0) return null;
  let first: PermissionRule | null = null;
  for (const unit of units) {
    const rule = allows.find((r) => unit.allowForms.some((f) => globMatch(r.pattern as string, f)));
    if (!rule) return null;
    first ??= rule;
  }
  return first;
}
