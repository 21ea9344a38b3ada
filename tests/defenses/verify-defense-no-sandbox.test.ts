/**
 * `verify-defense --all` on a machine without bubblewrap (macOS, Windows,
 * most containers), simulated the way faultline detects it: `bwrap` is not on
 * PATH. The shipped catalog must pass, the scenarios that need an OS sandbox
 * are skipped with that reason, and the missing sandbox is never reported as
 * a false positive (or any other failure) of a defense.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SHIPPED_DEFENSES } from '../../src/harness/defenses/registry.js';
import { pathWithout } from '../helpers/path-without.js';

interface Json {
  format_version: number;
  verified: boolean;
  sandbox_problem: string | null;
  defenses: Array<{
    defense: string;
    status: string;
    verified: boolean;
    problems: string[];
    mutations_killed: { hits: number; total: number };
    skipped: Array<{ scenario: string; run: string; role: string; reason: string }>;
  }>;
}

function verifyAll(env: NodeJS.ProcessEnv, extra: string[] = []) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'verify-defense', '--all', ...extra], { env: { ...process.env, ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 280_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('verify-defense --all without bubblewrap', () => {
  const PATH = pathWithout('bwrap');

  it('passes, skipping exactly the scenarios that need an OS sandbox and naming the sandbox as the cause', () => {
    const { code, stdout, stderr } = verifyAll({ PATH }, ['--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as Json;
    expect(report.format_version).toBe(1);
    expect(report.sandbox_problem).toMatch(/bwrap is not installed/);
    expect(report.defenses.map((d) => d.defense).sort()).toEqual(SHIPPED_DEFENSES.map((d) => d.name).sort());
    expect(report.defenses.flatMap((d) => d.problems)).toEqual([]);
    const skipped = report.defenses.flatMap((d) => d.skipped);
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(s.reason, s.scenario).toMatch(/OS sandbox/);
    // The controls that run workspace scripts (`sh check.sh`) are refused by the chain without a sandbox:
    // skipped with that reason, not counted as the loop defenses' false positives.
    const control = skipped.find((s) => s.scenario === 'control-loop-reread-file-changed-between');
    expect(control).toMatchObject({ run: 'defense on', role: 'control' });
    expect(control!.reason).toMatch(/rule unseen_code/);
    // A run with the dangerous-command defense off calls bash: never run unsandboxed.
    expect(skipped).toContainEqual(expect.objectContaining({ scenario: 'permissions-002-dangerous-command-accept-edits', run: 'defense off' }));
    // A scenario whose script starts no process still gets its run with the defense off.
    const cut = report.defenses.find((d) => d.defense === 'cut_tool_call_guard')!;
    expect(cut.status).toBe('verified');
    expect(cut.mutations_killed.total).toBeGreaterThan(0);
  }, 300_000);

  it('says so in the terminal matrix: the skipped runs, the machine\'s missing bwrap, and exit 0', () => {
    const { code, stdout } = verifyAll({ PATH });
    expect(code).toBe(0);
    expect(stdout).toMatch(/Skipped \d+ scenario runs that need an OS sandbox, which this machine lacks \(bwrap is not installed/);
    expect(stdout).not.toMatch(/a false positive/);
    expect(stdout).not.toContain('NOT verified');
  }, 300_000);
});
