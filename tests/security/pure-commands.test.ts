/**
 * Issue 23, class 6 (the rules without the OS sandbox): commands that look
 * pure still reach outside. A glob in `echo`, `printf` or a `for` list lists
 * directories outside the workspace (other tasks' workspaces next to it);
 * a repository's `.npmrc` makes a "read-only" `npm ls` write its logs
 * anywhere. Judged by what the model got (outside names) and by files made
 * outside, in every mode, without the sandbox (the jail only contains a
 * miss); then each attack lands with its rule off.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { setRulesOff } from '../../src/harness/permissions/rule-switches.js';
import { bashCall, makeLab, removeLabs, violations, type Lab } from './lab.js';
import { MODES } from './catalog.js';

afterAll(removeLabs, 180_000);
afterEach(() => setRulesOff([]));

const npmrc = (lab: Omit<Lab, 'before'>) => {
  writeFileSync(join(lab.ws, 'package.json'), '{"name":"p","version":"1.0.0"}\n');
  writeFileSync(join(lab.ws, '.npmrc'), `logs-dir=${lab.out}/npmlogs\ncache=${lab.out}/npmcache\n`);
};

const ATTACKS: { id: string; command: string; setup?: (lab: Omit<Lab, 'before'>) => void; listsOutside?: true; rules: Parameters<typeof setRulesOff>[0] }[] = [
  { id: 'echo with an absolute glob', command: 'echo OUT/*', listsOutside: true, rules: ['operand_paths'] },
  { id: 'echo with a .. glob (the parent: other workspaces)', command: 'echo ../*/*', listsOutside: true, rules: ['operand_paths'] },
  { id: 'printf with a glob', command: "printf '%s\\n' OUT/*", listsOutside: true, rules: ['operand_paths'] },
  { id: 'for loop over a glob', command: 'for f in OUT/*; do echo "$f"; done', listsOutside: true, rules: ['operand_paths'] },
  { id: 'npm ls with the repository .npmrc', command: 'npm ls --offline', setup: npmrc, rules: ['config_sources'] },
];

describe.each(MODES)('%s mode, no sandbox', (mode) => {
  it.concurrent.each(ATTACKS)('$id: refused, nothing listed or written outside', async (attack) => {
    const lab = makeLab(attack.setup);
    const r = await bashCall(lab, attack.command.replaceAll('OUT', lab.out), mode, 'none');
    expect(violations(lab, mode, r.output)).toEqual([]);
    // Listing outside is a read outside (a soft ask that bypass lifts, as for `cat` of a file outside); the npm
    // write is refused in every mode.
    if (mode === 'bypass' && attack.listsOutside) return;
    expect(r.output).not.toContain('secret.txt');
    expect(r.decision).not.toBe('allow');
  }, 60_000);
});

describe('each lands with its rule off', () => {
  it.each(ATTACKS)('$id', async (attack) => {
    const lab = makeLab(attack.setup);
    setRulesOff(attack.rules);
    const r = await bashCall(lab, attack.command.replaceAll('OUT', lab.out), attack.listsOutside ? 'acceptEdits' : 'bypass', 'jail');
    expect(r.decision).toBe('allow');
    const leaked = r.output.includes('secret.txt') || violations(lab, 'bypass', r.output).length > 0;
    expect(leaked).toBe(true);
  }, 60_000);
});
