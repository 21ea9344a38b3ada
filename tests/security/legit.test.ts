/**
 * The exploration commands agents need stay allowed in acceptEdits +
 * headless (the suite default): 0 false positives, and each really runs
 * (inside the product sandbox when bubblewrap works here).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LEGIT } from './catalog.js';
import { bashCall, bwrapOrFail, makeLab, removeLabs } from './lab.js';

afterAll(removeLabs, 180_000); // hundreds of labs, each a git repository: slow to delete on a loaded machine

describe('legitimate commands in acceptEdits mode, headless', () => {
  const use = bwrapOrFail() ? 'product' : 'jail';
  it.concurrent.each(LEGIT)('allows and runs `%s`', async (command) => {
    const lab = makeLab();
    const r = await bashCall(lab, command, 'acceptEdits', use);
    expect({ decision: r.decision, source: r.source }).toEqual({ decision: 'allow', source: 'read_only' });
    expect(r.output).not.toMatch(/command exited with code|command was killed/);
  }, 60_000);
});
