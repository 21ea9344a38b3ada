/**
 * The tool-definition arrays parse-body.ts shares between request bodies.
 * They are deep-frozen, so whatever a check computes from one array alone
 * holds for every later body that carries it: a session's requests (and a
 * suite's sessions) send the same definitions, and checking them again on
 * every call was repeated work. Only arrays registered here are remembered;
 * any other value is checked each time.
 */
const shared = new WeakSet<object>();

/** Registers a deep-frozen array of definitions (parse-body.ts). */
export function shareTools(tools: readonly unknown[]): void {
  if (!Object.isFrozen(tools)) throw new Error('only deep-frozen tool arrays can be shared');
  shared.add(tools);
}

/** `check`, remembered per shared array; it must depend on the array alone. A non-null result is frozen (it is shared too). */
export function perSharedTools<R>(check: (tools: unknown) => R): (tools: unknown) => R {
  const results = new WeakMap<object, { result: R }>();
  return (tools) => {
    if (typeof tools !== 'object' || tools === null || !shared.has(tools)) return check(tools);
    const known = results.get(tools);
    if (known !== undefined) return known.result;
    const result = check(tools);
    if (typeof result === 'object' && result !== null) Object.freeze(result);
    results.set(tools, { result });
    return result;
  };
}
