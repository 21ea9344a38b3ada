/**
 * The OS sandbox alone holds: every rule of the shell analysis and the
 * chain's safety steps switched off, bypass mode (everything is allowed),
 * and still no attack writes or reads outside the workspace — the product
 * sandbox (bubblewrap) confines each command. Then the sandbox's own
 * properties: protected paths read-only inside a writable workspace, no
 * network, a fresh PID namespace, killed with the task, and `required`
 * failing where bubblewrap cannot run. Under CI a missing bubblewrap fails
 * these tests (bwrapOrFail), it never skips them.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RULE_SWITCHES, setRulesOff } from '../../src/harness/permissions/rule-switches.js';
import type { ChainStep } from '../../src/harness/permissions/types.js';
import { bubblewrap, chooseSandbox, SandboxUnavailableError } from '../../src/harness/sandbox/sandbox.js';
import { runCommand } from '../../src/harness/tools/run-command.js';
import { ATTACKS } from './catalog.js';
import { bashCall, bwrapOrFail, makeLab, removeLabs, violations } from './lab.js';

afterEach(() => setRulesOff([]));
afterAll(removeLabs, 180_000); // hundreds of labs, each a git repository: slow to delete on a loaded machine

const SAFETY_STEPS: ChainStep[] = ['deny_rules', 'dangerous_command', 'protected_paths', 'path_validation', 'tool_check', 'denial_fuse'];
const available = bwrapOrFail();

describe.runIf(available)('the sandbox alone, with every rule off, in bypass mode', () => {
  it.each(ATTACKS)('$cls: $id runs and still leaves nothing outside the workspace', async (attack) => {
    const lab = makeLab(attack.setup);
    setRulesOff(RULE_SWITCHES);
    const r = await bashCall(lab, attack.command.replaceAll('OUT', lab.out), 'bypass', 'product', SAFETY_STEPS);
    expect(r.decision).toBe('allow');
    expect(violations(lab, 'acceptEdits', r.output)).toEqual([]);
  }, 60_000);
});

describe.runIf(available)('bubblewrap sandbox properties', () => {
  const run = (lab: ReturnType<typeof makeLab>, command: string, options: { network?: boolean; timeoutMs?: number; signal?: AbortSignal } = {}) =>
    runCommand(command, { cwd: lab.ws, timeoutMs: options.timeoutMs ?? 20_000, signal: options.signal ?? new AbortController().signal, sandbox: bubblewrap({ workspace: lab.ws, homeDir: lab.home, network: options.network }) });

  it('lets the command write the workspace but not its protected paths, and hides homes and /tmp', async () => {
    const lab = makeLab();
    const r = await run(lab, `echo ok > made.txt; echo x > .git/hooks/pre-commit; echo x >> .git/config; ls ${lab.out}; cat ~/.ssh/id_rsa; ls /root; echo done`);
    expect(readFileSync(join(lab.ws, 'made.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(lab.ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(r.output).toMatch(/Read-only file system/);
    expect(r.output).not.toContain(lab.sshMark);
    expect(violations(lab, 'acceptEdits', r.output)).toEqual([]);
  });

  it('has no network unless the task allows it, and a fresh PID namespace', async () => {
    const lab = makeLab();
    const off = await run(lab, 'cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " "; echo pid=$$');
    expect(off.output.trim().split('\n')).toEqual(['lo', expect.stringMatching(/^pid=[0-9]$/)]);
    const on = await run(lab, 'cat /proc/net/dev | tail -n +3 | wc -l', { network: true });
    expect(Number(on.output.trim())).toBeGreaterThan(1);
  });

  it('is killed with the task: a detached grandchild does not outlive a timeout', async () => {
    const lab = makeLab();
    const marker = `${300 + Number.parseInt(lab.root.slice(-3), 36) % 600}.${Date.now() % 1000}`;
    const r = await run(lab, `setsid sleep ${marker} & echo started; sleep 60`, { timeoutMs: 500 });
    expect(r.stoppedBy).toBe('timeout');
    const alive = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p)).some((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(`sleep\0${marker}`);
      } catch {
        return false;
      }
    });
    const end = Date.now() + 5000;
    while (alive() && Date.now() < end) await new Promise((res) => setTimeout(res, 50));
    expect(alive()).toBe(false);
  });

  it('reports a command killed by a signal as that signal, as without the sandbox', async () => {
    const lab = makeLab();
    const r = await run(lab, 'kill -KILL $$');
    expect({ signal: r.signalName, code: r.exitCode }).toEqual({ signal: 'SIGKILL', code: null });
  });
});

describe('choosing the sandbox', () => {
  it('fails a required sandbox where bubblewrap cannot run, and auto says why it runs without one', () => {
    const lab = makeLab();
    expect(() => chooseSandbox('required', { workspace: lab.ws, bwrap: '/nonexistent/bwrap' })).toThrow(SandboxUnavailableError);
    const auto = chooseSandbox('auto', { workspace: lab.ws, bwrap: '/nonexistent/bwrap' });
    expect({ kind: auto.sandbox.kind, note: auto.note }).toEqual({ kind: 'none', note: expect.stringContaining('not installed') });
    expect(chooseSandbox('off', { workspace: lab.ws }).sandbox.kind).toBe('none');
    if (available) expect(chooseSandbox('auto', { workspace: lab.ws }).sandbox.kind).toBe('bubblewrap');
  });
});
