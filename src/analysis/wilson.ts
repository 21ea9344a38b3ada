/**
 * Wilson score interval for a proportion, and Newcombe's hybrid interval for
 * the difference of two proportions (built from the two Wilson intervals).
 */
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson score interval for successes out of n. Unlike the normal
 * approximation it stays inside [0, 1] and is sensible at 0/n and n/n, where
 * small repeat counts live. No data (n <= 0) gives [0, 1].
 */
export function wilson(successes: number, n: number, z = Z95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/** 95% interval for p2 - p1 (Newcombe 1998, method 10). */
export function newcombeDiff(k1: number, n1: number, k2: number, n2: number, z = Z95): Interval {
  const p1 = n1 === 0 ? 0 : k1 / n1;
  const p2 = n2 === 0 ? 0 : k2 / n2;
  const a = wilson(k1, n1, z);
  const b = wilson(k2, n2, z);
  const d = p2 - p1;
  return {
    low: d - Math.sqrt((p2 - b.low) ** 2 + (a.high - p1) ** 2),
    high: d + Math.sqrt((b.high - p2) ** 2 + (p1 - a.low) ** 2),
  };
}
