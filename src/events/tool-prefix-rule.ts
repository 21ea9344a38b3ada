/**
 * The prefix-distinctness check between resident and deferred tool names
 * (docs/harness-rules.md#distinct-name-prefixes, docs/harness-rules.md#prefix-collapse). When a deferred tool is not in the request, a model
 * that starts writing its name under constrained decoding can only finish
 * it as the one RESIDENT tool sharing the prefix — a valid-looking call of
 * the wrong tool that no later check catches. Pairs sharing 4+ leading
 * characters are reported; `faultline lint-tools` fails on them.
 *
 * Two MCP names are compared where the model actually chooses between them:
 * after the `mcp__` every MCP tool shares, and after `<server>__` too when
 * both are on one server (`mcp__gh__get_issue` vs `mcp__gh__get_pull` share
 * "get_"). Comparing whole names would flag every MCP pair for `mcp__`.
 * A resident built-in and an MCP name are compared whole: the model writing
 * `mcp__…` has left `read` behind at the first character.
 *
 * The one definition of the rule: `faultline lint-tools` calls it directly and
 * the report's integrity SQL through the DuckDB function tool_prefix_collision
 * (analysis/rule-functions.ts). A leaf module: it imports nothing.
 */
export const MIN_SHARED_PREFIX = 4;

export interface PrefixCollision {
  resident: string;
  deferred: string;
  /** The shared leading characters of the compared parts. */
  prefix: string;
  /** What both names start with before the compared parts (`mcp__` or `mcp__<server>__`), or ''. */
  after: string;
}

const MCP = 'mcp__';

/** The parts of two names the check compares, and the common start left out. */
export function comparedParts(a: string, b: string): { a: string; b: string; after: string } {
  if (!a.startsWith(MCP) || !b.startsWith(MCP)) return { a, b, after: '' };
  const serverOf = (name: string) => {
    const end = name.indexOf('__', MCP.length);
    return end > MCP.length ? name.slice(0, end + 2) : null;
  };
  const server = serverOf(a);
  if (server !== null && server === serverOf(b)) return { a: a.slice(server.length), b: b.slice(server.length), after: server };
  return { a: a.slice(MCP.length), b: b.slice(MCP.length), after: MCP };
}

export function sharedPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

export function prefixCollisions(resident: readonly string[], deferred: readonly string[], min = MIN_SHARED_PREFIX): PrefixCollision[] {
  const out: PrefixCollision[] = [];
  for (const d of deferred) {
    for (const r of resident) {
      if (r === d) continue;
      const parts = comparedParts(r, d);
      const prefix = sharedPrefix(parts.a, parts.b);
      if (prefix.length >= min) out.push({ resident: r, deferred: d, prefix, after: parts.after });
    }
  }
  return out;
}

/** Whether one resident/deferred pair collides by the rule above (the DuckDB function's body). */
export function collides(resident: string, deferred: string, min = MIN_SHARED_PREFIX): boolean {
  return prefixCollisions([resident], [deferred], min).length > 0;
}
