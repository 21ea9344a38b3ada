/**
 * Locale-independent string order. `localeCompare` depends on the machine's
 * ICU data and locale, and anything sent to the model must be byte-identical
 * from run to run (prompt cache, docs/harness-rules.md#stable-prefix).
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
