/**
 * Small, exact statistics for pass rates. One place for the Wilson score
 * interval so run summaries and run-to-run diffs report the same numbers.
 */

export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval for a binomial proportion (successes out of n). Unlike
 * the normal approximation it stays inside [0, 1] and is sensible at 0/n and
 * n/n, which is where small repeat counts live. n = 0 gives [0, 1] (no data).
 */
export function wilson(successes: number, n: number, z = Z95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamp float noise at the edges (e.g. 1.0000000000000002).
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

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
