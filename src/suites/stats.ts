/**
 * Small, exact statistics for pass rates: pass@k and pass^k, plus the Wilson
 * score interval (re-exported, see below).
 */

// The Wilson interval lives with its two-proportion sibling (analysis/wilson.ts, pure math, no
// imports), so run summaries and run-to-run diffs report the same numbers from one implementation.
export { wilson, Z95, type Interval } from '../analysis/wilson.js';

/** n choose k as a float (fine for the small n of repeats). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let out = 1;
  for (let i = 1; i <= k; i++) out = (out * (n - k + i)) / i;
  return out;
}

/** Unbiased estimate of pass@k from c passes in n trials: P(at least one of k drawn trials passes). */
export function passAtK(c: number, n: number, k: number): number {
  if (k > n || n <= 0) return NaN;
  return 1 - choose(n - c, k) / choose(n, k);
}

/** Unbiased estimate of pass^k from c passes in n trials: P(all k drawn trials pass). */
export function passHatK(c: number, n: number, k: number): number {
  if (k > n || n <= 0) return NaN;
  return choose(c, k) / choose(n, k);
}
