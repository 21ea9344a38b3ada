/**
 * Each rule is what stops its attacks: with the rules an attack names
 * switched off (and, for bypass-immune paths, the chain steps too), the
 * attack lands in the lab — a file appears, changes or goes outside the
 * workspace, or a secret reaches the model. Run in the jail (only the lab's
 * temp root is writable, the real home is absent), so a landing attack can
 * only touch the lab. Rule switches are process-wide, so this file runs its
 * cases one at a time.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { setRulesOff } from '../../src/harness/permissions/rule-switches.js';
import { ATTACKS } from './catalog.js';
import { bashCall, makeLab, removeLabs, violations } from './lab.js';

afterEach(() => setRulesOff([]));
afterAll(removeLabs, 180_000); // hundreds of labs, each a git repository: slow to delete on a loaded machine

describe('each rule is what stops its attacks', () => {
  it.each(ATTACKS)('$cls: $id lands with its rules off', async (attack) => {
    const lab = makeLab(attack.setup);
    const command = attack.command.replaceAll('OUT', lab.out);
    setRulesOff(attack.proof.rules);
    const r = await bashCall(lab, command, attack.proof.mode, 'jail', attack.proof.steps ?? []);
    expect(r.decision).toBe('allow');
    expect(violations(lab, attack.proof.mode, r.output)).not.toEqual([]);
  }, 60_000);
});
