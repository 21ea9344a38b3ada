import { describe, expect, it } from 'vitest';
import { nonExecutionKind, recordedDecision, resultMeta } from './claude-code-permissions.js';

describe('Claude Code permission records', () => {
  it('names what decided: a rule, a person, a hook, the mode, or the unanswered question', () => {
    expect(recordedDecision({ decision: 'accept', source: 'config', reasonType: 'rule', ruleSource: 'cliArg' })).toEqual({ decision: 'allow', source: 'allow_rule', needed_prompt: false });
    expect(recordedDecision({ decision: 'reject', source: 'config', reason_type: 'rule' })).toEqual({ decision: 'deny', source: 'deny_rule', needed_prompt: false });
    expect(recordedDecision({ decision: 'reject', source: 'user_reject' })).toEqual({ decision: 'deny', source: 'user', needed_prompt: true });
    expect(recordedDecision({ decision: 'accept', source: 'user_permanent' })).toEqual({ decision: 'allow', source: 'user', needed_prompt: true });
    expect(recordedDecision({ decision: 'reject', source: 'hook', reasonType: 'hook' })).toEqual({ decision: 'deny', source: 'hook', needed_prompt: false });
    expect(recordedDecision({ decision: 'accept', source: 'config', reasonType: 'mode' })).toEqual({ decision: 'allow', source: 'mode', needed_prompt: false });
    // Headless: the question nobody could answer is a reject with no reason of its own.
    expect(recordedDecision({ decision: 'reject', source: 'config', reasonCode: 'unknown' })).toEqual({ decision: 'deny', source: 'default', needed_prompt: true });
    expect(recordedDecision({ decision: 'cancelled', source: 'user_abort' })).toBeNull();
    expect(recordedDecision(undefined)).toBeNull();
  });

  it('tells a call that never ran from one whose tool failed', () => {
    expect(nonExecutionKind('user-rejected', null)).toBe('permission_denied');
    expect(nonExecutionKind('permission-rule', { decision: 'deny', source: 'hook', needed_prompt: false })).toBe('hook_blocked');
    expect(nonExecutionKind('automode-blocked', null)).toBe('permission_denied');
    expect(nonExecutionKind('interrupted', null)).toBe('aborted');
    expect(nonExecutionKind(undefined, null)).toBeNull();
  });

  it('reads stream-json meta by tool_use_id, and a transcript line\'s one record only when the line has one result', () => {
    const stream = { tool_result_meta: [{ id: 'a', non_execution_kind: 'user-rejected', permission_decision: { decision: 'reject', source: 'config' } }] };
    expect(resultMeta(stream, 'a', 2)).toEqual({ decision: { decision: 'deny', source: 'default', needed_prompt: true }, kind: 'user-rejected' });
    const transcript = { permissionDecision: { decision: 'accept', source: 'config', reasonType: 'rule' }, toolDenialKind: undefined };
    expect(resultMeta(transcript, 'b', 1).decision).toEqual({ decision: 'allow', source: 'allow_rule', needed_prompt: false });
    expect(resultMeta(transcript, 'b', 2)).toEqual({ decision: null, kind: undefined });
  });
});
