import { describe, expect, it } from 'vitest';
import type { LoadedTask } from '../load-suite.js';
import { commandReason, sandboxDenialReason, scriptedToolNames } from './sandbox-needs.js';

const task = (script: unknown): LoadedTask => ({ id: 't', suite: 's', file: 'f.yaml', prompt: 'p', script }) as unknown as LoadedTask;

describe('which verify-defense runs need an OS sandbox', () => {
  it('finds every tool a script can call, in fixed turns and in every branch of its rules', () => {
    const script = [
      { tool_use: [{ name: 'read', input: {} }] },
      { rule: [{ when: { tool: 'read' }, then: { tool_use: [{ name: 'bash', input: { command: 'rm -rf /' } }] } }, { then: { text: 'done' } }] },
    ];
    expect([...scriptedToolNames(task(script))].sort()).toEqual(['bash', 'read']);
    expect(commandReason(task(script), 'dangerous_command_block')).toMatch(/with dangerous_command_block off its script calls bash/);
  });

  it('lets a script that starts no process run with the defense off', () => {
    expect(commandReason(task([{ tool_use: [{ name: 'edit', input: {} }] }, { text: 'ok' }]), 'x')).toBeNull();
  });

  it('attributes a session to the missing sandbox only for the rules that refuse for want of one', () => {
    expect(sandboxDenialReason([{ tool: 'bash', turn: 2, rule: 'unseen_code' }])).toMatch(/refused 1 call that runs code it cannot see \(bash \(turn 2\); rule unseen_code\)/);
    expect(sandboxDenialReason([{ tool: 'bash', turn: 1, rule: 'dangerous_command' }])).toBeNull();
    expect(sandboxDenialReason([])).toBeNull();
  });
});
