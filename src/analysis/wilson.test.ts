import { describe, expect, it } from 'vitest';
import { newcombeDiff, wilson } from './wilson.js';

describe('wilson', () => {
  it('matches the published 95% interval for 8 of 10', () => {
    const ci = wilson(8, 10);
    expect(ci.low).toBeCloseTo(0.4902, 4);
    expect(ci.high).toBeCloseTo(0.9433, 4);
  });

  it('stays inside [0, 1] at the edges and is uninformative for n = 0', () => {
    expect(wilson(0, 5).low).toBe(0);
    expect(wilson(5, 5).high).toBe(1);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('newcombeDiff', () => {
  it("matches Newcombe's (1998) worked example: 56/70 vs 48/80 gives 0.0524 .. 0.3339", () => {
    const ci = newcombeDiff(48, 80, 56, 70);
    expect(ci.low).toBeCloseTo(0.0524, 4);
    expect(ci.high).toBeCloseTo(0.3339, 4);
  });
});
