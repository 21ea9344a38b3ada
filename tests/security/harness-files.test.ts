/**
 * Issue 23, classes 1, 2 and 4: what the harness itself does with files —
 * snapshots, spills, the sandbox's read-only binds, the write and edit
 * tools — never reads or writes outside the workspace, whatever the model
 * or the repository did to the tree. Every attack runs in every mode the
 * catalog uses, with the product sandbox on and off, and is judged by the
 * lab outside the workspace (canary files with known content, the home's
 * key, nothing new beside the workspace, no secret copied into it), never
 * by the harness's verdict. The sandbox-only binds are also run with the
 * rules and safety steps off (the sandbox alone must hold).
 *
 * Class 5 (check-then-use races) is in harness-races.test.ts; the
 * `expect.files` checks and cleanup in harness-own-files.test.ts.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RULE_SWITCHES, setRulesOff } from '../../src/harness/permissions/rule-switches.js';
import type { ChainStep } from '../../src/harness/permissions/types.js';
import { MODES } from './catalog.js';
import { outsideEffects, toolCalls, type Outcome, type SandboxSide, type ToolCall } from './harness-call.js';
import { bwrapOrFail, makeLab, removeLabs, type Lab } from './lab.js';

afterAll(removeLabs, 180_000);
afterEach(() => setRulesOff([]));

type Setup = (lab: Omit<Lab, 'before'>) => void;

interface FileAttack {
  readonly id: string;
  readonly cls: 'harness_first' | 'harness_state' | 'hard_links';
  readonly setup: Setup;
  readonly calls: (lab: Lab) => ToolCall[];
  /** What must still work after the attack (the task is not broken by it). */
  readonly works?: (outcome: Outcome, lab: Lab) => void;
}

const BIG = `${'x'.repeat(99)}\n`.repeat(400); // 40,000 characters: over bash's 30,000 limit, so the output is spilled
const bash = (command: string): ToolCall => ({ name: 'bash', input: { command, timeout_ms: 20_000 } });
const bigFile: Setup = (lab) => writeFileSync(join(lab.ws, 'big.txt'), BIG);
const rcFile: Setup = (lab) => writeFileSync(join(lab.home, '.bashrc'), 'alias ls=ls\n');

export const FILE_ATTACKS: readonly FileAttack[] = [
  // 1. The harness touched paths before (or instead of) the policy: a refused call was snapshotted through a link.
  { id: 'refused-rm-through-link-to-ssh', cls: 'harness_first', setup: (lab) => symlinkSync(join(lab.home, '.ssh'), join(lab.ws, 'keys')), calls: () => [bash('rm keys/id_rsa')] },
  { id: 'refused-edit-through-link-to-parent', cls: 'harness_first', setup: (lab) => symlinkSync('..', join(lab.ws, 'up')), calls: (lab) => [{ name: 'edit', input: { file_path: 'up/outside/secret.txt', old_string: lab.outsideMark, new_string: 'gone' } }] },
  { id: 'refused-rm-dir-through-link', cls: 'harness_first', setup: (lab) => symlinkSync(lab.home, join(lab.ws, 'h')), calls: () => [bash('rm -rf h/.ssh')] },
  { id: 'refused-write-through-dangling-link', cls: 'harness_first', setup: (lab) => symlinkSync(join(lab.out, 'pwned'), join(lab.ws, 'notes.md')), calls: () => [{ name: 'write', input: { file_path: 'notes.md', content: 'x' } }] },
  // 2. Harness state in the model's tree: .faultline (or a part of it) planted as a link.
  { id: 'spill-through-faultline-link-absolute', cls: 'harness_state', setup: (lab) => { bigFile(lab); symlinkSync(lab.out, join(lab.ws, '.faultline')); }, calls: () => [bash('cat big.txt')], works: (o) => expect(o.outputs[0]).toContain('[Output too long') },
  { id: 'spill-through-faultline-link-to-parent', cls: 'harness_state', setup: (lab) => { bigFile(lab); symlinkSync('..', join(lab.ws, '.faultline')); }, calls: () => [bash('cat big.txt')] },
  { id: 'spill-through-spill-link', cls: 'harness_state', setup: (lab) => { bigFile(lab); mkdirSync(join(lab.ws, '.faultline')); symlinkSync(lab.home, join(lab.ws, '.faultline', 'spill')); }, calls: () => [bash('cat big.txt')] },
  { id: 'snapshot-through-snapshots-link', cls: 'harness_state', setup: (lab) => { mkdirSync(join(lab.ws, '.faultline')); symlinkSync(lab.home, join(lab.ws, '.faultline', 'snapshots')); }, calls: () => [{ name: 'write', input: { file_path: 'a.txt', content: 'new\n' } }] },
  { id: 'snapshot-through-faultline-link', cls: 'harness_state', setup: (lab) => symlinkSync(lab.out, join(lab.ws, '.faultline')), calls: () => [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'omega' } }] },
  // The sandbox's read-only binds through a link: `..` binds the parent of every workspace (readable, workspace read-only).
  { id: 'bind-faultline-link-to-parent', cls: 'harness_state', setup: (lab) => symlinkSync('..', join(lab.ws, '.faultline')), calls: () => [bash('cat ../outside/secret.txt; echo done')], works: (o) => expect(o.outputs[0]).toContain('done') },
  { id: 'bind-hooks-link-to-outside', cls: 'harness_state', setup: (lab) => { rmSync(join(lab.ws, '.git', 'hooks'), { recursive: true }); symlinkSync(lab.out, join(lab.ws, '.git', 'hooks'), 'dir'); }, calls: () => [bash('cat .git/hooks/secret.txt; echo done')], works: (o) => expect(o.outputs[0]).toContain('done') },
  // An absolute link to a path absent inside the sandbox made every bash call of the task fail to start.
  { id: 'bind-absolute-link-breaks-bash', cls: 'harness_state', setup: (lab) => symlinkSync(lab.out, join(lab.ws, '.faultline')), calls: () => [bash('echo still-works > made.txt && cat made.txt')], works: (o, lab) => { expect(o.outputs[0]).toContain('still-works'); expect(readFileSync(join(lab.ws, 'made.txt'), 'utf8')).toBe('still-works\n'); } },
  // 4. Hard links: a workspace name of an inode whose other name is outside (pnpm's node_modules is laid out this way).
  { id: 'write-through-hard-link', cls: 'hard_links', setup: (lab) => linkSync(join(lab.out, 'dir', 'keep.txt'), join(lab.ws, 'keep.txt')), calls: () => [{ name: 'write', input: { file_path: 'keep.txt', content: 'pwned\n' } }] },
  { id: 'edit-through-hard-link', cls: 'hard_links', setup: (lab) => { rcFile(lab); linkSync(join(lab.home, '.bashrc'), join(lab.ws, 'rc')); }, calls: () => [{ name: 'edit', input: { file_path: 'rc', old_string: 'alias ls=ls', new_string: 'touch pwned' } }] },
  { id: 'edit-through-hard-link-in-node-modules', cls: 'hard_links', setup: (lab) => { mkdirSync(join(lab.ws, 'node_modules', 'x'), { recursive: true }); linkSync(join(lab.out, 'dir', 'keep.txt'), join(lab.ws, 'node_modules', 'x', 'index.js')); }, calls: () => [{ name: 'edit', input: { file_path: 'node_modules/x/index.js', old_string: 'keep', new_string: 'pwned' } }] },
];

const SIDES: readonly SandboxSide[] = bwrapOrFail() ? ['on', 'off'] : ['off'];
const CASES = FILE_ATTACKS.flatMap((attack) => MODES.flatMap((mode) => SIDES.map((side) => ({ ...attack, mode, side }))));

describe('the harness\'s own file operations, in every mode, sandbox on and off', () => {
  it.concurrent.each(CASES)('$cls: $id ($mode, sandbox $side) leaves nothing outside the workspace', async (attack) => {
    const lab = makeLab(attack.setup);
    const top = readdirSync(lab.root);
    const outcome = await toolCalls(lab, attack.calls(lab), attack.mode, attack.side);
    expect(outsideEffects(lab, outcome.outputs, top, attack.mode, attack.side)).toEqual([]);
    if (outcome.decisions.every((d) => d === 'allow')) attack.works?.(outcome, lab);
  }, 60_000);
});

const SAFETY_STEPS: ChainStep[] = ['deny_rules', 'dangerous_command', 'protected_paths', 'path_validation', 'tool_check', 'denial_fuse'];

/** Binds a planted link would make: with every rule off (bypass), the sandbox alone keeps the host home and the parent out. */
const BIND_ATTACKS: readonly FileAttack[] = [
  { id: 'faultline-link-to-home', cls: 'harness_state', setup: (lab) => symlinkSync(lab.home, join(lab.ws, '.faultline')), calls: () => [bash('cat .faultline/.ssh/id_rsa; cat ~/.ssh/id_rsa; echo done')] },
  { id: 'faultline-link-to-parent', cls: 'harness_state', setup: (lab) => symlinkSync('..', join(lab.ws, '.faultline')), calls: () => [bash('cat ../outside/secret.txt; cat ../home/.ssh/id_rsa; echo done')] },
  { id: 'hooks-link-to-home', cls: 'harness_state', setup: (lab) => { rmSync(join(lab.ws, '.git', 'hooks'), { recursive: true }); symlinkSync(lab.home, join(lab.ws, '.git', 'hooks'), 'dir'); }, calls: () => [bash('cat .git/hooks/.ssh/id_rsa; echo done')] },
];

describe.runIf(SIDES.includes('on'))('the sandbox alone: a planted link never makes bubblewrap bind its target', () => {
  it.each(BIND_ATTACKS)('$id: nothing outside the workspace is read or written with every rule off', async (attack) => {
    const lab = makeLab(attack.setup);
    const top = readdirSync(lab.root);
    setRulesOff(RULE_SWITCHES);
    const outcome = await toolCalls(lab, attack.calls(lab), 'bypass', 'on', SAFETY_STEPS);
    expect(outcome.decisions).toEqual(['allow']);
    expect(outcome.outputs[0]).toContain('done'); // the call ran: the sandbox started
    expect(outsideEffects(lab, outcome.outputs, top, 'acceptEdits', 'on')).toEqual([]);
  }, 60_000);
});
