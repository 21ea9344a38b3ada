import { describe, expect, it } from 'vitest';
import { SpillGroups } from './spill-groups.js';

async function collect(groups: SpillGroups<{ n: number }>): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  await groups.each((key, records) => {
    expect(out.has(key)).toBe(false); // each group once
    out.set(key, records.map((r) => r.n));
  });
  return out;
}

describe('SpillGroups', () => {
  it('gives the same groups, records in order, whether it spilled to disk or not', async () => {
    const held = new SpillGroups<{ n: number }>(1_000_000);
    const spilling = new SpillGroups<{ n: number }>(7);
    // Keys interleaved as an export interleaves traces.
    for (let n = 0; n < 500; n++) {
      const key = `trace-${(n * 7919) % 37}`;
      held.add(key, { n });
      spilling.add(key, { n });
    }
    const a = await collect(held);
    const b = await collect(spilling);
    expect(spilling.spilled).toBeGreaterThan(400);
    expect(held.spilled).toBe(0);
    expect(b).toEqual(a);
    expect([...a.values()].every((list) => list.every((n, i) => i === 0 || n > (list[i - 1] as number)))).toBe(true);
  });
});
