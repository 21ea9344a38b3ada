/**
 * Array.prototype.map with a result of one array kind. V8's optimized `.map` returns a holey array where
 * the interpreter's returns a packed one (and `[].map` a small-integer one): a hot function reading such
 * arrays sees a new map once the producer is optimized, is deoptimized and compiled again. Built by push,
 * the result is packed whichever tier made it.
 */
export function packedMap<T, U>(items: readonly T[], f: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) out.push(f(items[i]!, i));
  return out;
}
