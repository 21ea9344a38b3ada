import { describe, expect, it } from 'vitest';
import { passAtK, passHatK, wilson } from './stats.js';

describe('wilson', () => {
  it('matches the textbook interval for 8 of 10 (0.490, 0.943)', () => {
    const { low, high } = wilson(8, 10);
    expect(low).toBeCloseTo(0.4902, 3);
    expect(high).toBeCloseTo(0.9433, 3);
  });

  it('stays inside [0, 1] and is not degenerate at 0/n and n/n', () => {
    const none = wilson(0, 5);
    const all = wilson(5, 5);
    expect(none.low).toBe(0);
    expect(none.high).toBeGreaterThan(0.4);
    expect(all.high).toBe(1);
    expect(all.low).toBeLessThan(0.6);
  });

  it('says nothing is known for n = 0', () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('pass@k and pass^k', () => {
  it('with n = k, pass^k is 1 only when every trial passed and pass@k when any did', () => {
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(2, 3, 3)).toBe(0);
    expect(passAtK(1, 3, 3)).toBe(1);
    expect(passAtK(0, 3, 3)).toBe(0);
  });

  it('pass@1 and pass^1 are the plain pass rate', () => {
    expect(passAtK(3, 4, 1)).toBeCloseTo(0.75);
    expect(passHatK(3, 4, 1)).toBeCloseTo(0.75);
  });

  it('pass^2 of 3 passes in 4 trials is C(3,2)/C(4,2) = 0.5', () => {
    expect(passHatK(3, 4, 2)).toBeCloseTo(0.5);
  });
});
