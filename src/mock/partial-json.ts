/**
 * Cut-off tool arguments for the `cut_tool_input` fault: what a max_tokens stop
 * in the middle of a tool_use looks like on each wire (docs/harness-rules.md#stop-reasons, docs/harness-rules.md#state-before-init).
 */

/** The JSON text cut in the middle: never valid JSON for an object (braces stay open). */
export function cutJsonText(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

/**
 * The object a parser recovers from the cut text: the keys that were complete
 * before the cut; the unfinished key is dropped.
 */
export function partialObject(input: Record<string, unknown>): Record<string, unknown> {
  // Round-trip first so the entries are exactly what JSON.stringify writes (undefined values vanish).
  const entries = Object.entries(JSON.parse(JSON.stringify(input)) as Record<string, unknown>);
  const cut = cutJsonText(JSON.stringify(input)).length;
  const kept: Record<string, unknown> = {};
  let end = 1; // past the opening brace
  for (const [key, value] of entries) {
    end += (end > 1 ? 1 : 0) + JSON.stringify(key).length + 1 + JSON.stringify(value).length;
    if (end > cut) break;
    kept[key] = value;
  }
  return kept;
}
