/**
 * The prefix-distinctness check between resident and deferred tool names
 * (seed §3.4, §10.5). When a deferred tool is not in the request, a model
 * that starts writing its name under constrained decoding can only finish
 * it as the one RESIDENT tool sharing the prefix — a valid-looking call of
 * the wrong tool that no later check catches. Pairs sharing 4+ leading
 * characters are reported; `faultline lint-tools` fails on them.
 */
export const MIN_SHARED_PREFIX = 4;

export interface PrefixCollision {
  resident: string;
  deferred: string;
  /** The shared leading characters. */
  prefix: string;
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
      const prefix = sharedPrefix(r, d);
      if (prefix.length >= min) out.push({ resident: r, deferred: d, prefix });
    }
  }
  return out;
}
