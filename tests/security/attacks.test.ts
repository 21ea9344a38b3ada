/**
 * Every attack of the catalog, in every mode (acceptEdits, default and
 * bypass, all headless), with every rule on: refused, and no side effect
 * outside policy, checked on the file system and in what the model got —
 * not by the harness's verdict. Commands run in the lab's jail, so a rule
 * that failed here could only touch the lab.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ATTACKS, MODES } from './catalog.js';
import { bashCall, makeLab, removeLabs, violations } from './lab.js';

afterAll(removeLabs, 180_000); // hundreds of labs, each a git repository: slow to delete on a loaded machine

describe.each(MODES)('attacks in %s mode, headless', (mode) => {
  it.concurrent.each(ATTACKS)('$cls: $id is refused and leaves nothing outside policy', async (attack) => {
    const lab = makeLab(attack.setup);
    const r = await bashCall(lab, attack.command.replaceAll('OUT', lab.out), mode, 'jail');
    expect(violations(lab, mode, r.output)).toEqual([]);
    // Bypass may lift the soft ask on reading a non-secret file outside; everything else is refused in every mode.
    if (!(mode === 'bypass' && attack.readsOutside)) expect(r.decision).toBe('deny');
    if (attack.reason) expect(r.reason).toMatch(attack.reason);
  }, 60_000);
});
