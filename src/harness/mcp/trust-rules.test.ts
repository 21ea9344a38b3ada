import { describe, expect, it } from 'vitest';
import { checkPermission } from '../permissions/chain.js';
import type { PermissionConfig } from '../permissions/types.js';
import { trustRules } from './trust-rules.js';

const subject = (tool: string) => ({ tool, input: {}, readOnly: false, paths: [] });
const config = (rules: PermissionConfig['rules'], over: Partial<PermissionConfig> = {}): PermissionConfig => ({ mode: 'acceptEdits', workspaceRoot: '/w', homeDir: '/h', rules, ...over });

describe('per-server MCP trust', () => {
  const rules = trustRules([
    { name: 'open', trust: 'trusted' },
    { name: 'guarded', trust: 'ask' },
    { name: 'blocked', trust: 'deny' },
  ]);

  it('allows a trusted server, asks for the default, refuses a denied one', () => {
    expect(checkPermission(subject('mcp__open__x'), config(rules))).toMatchObject({ decision: 'allow', source: 'allow_rule', ruleId: 'mcp_server:open' });
    expect(checkPermission(subject('mcp__guarded__x'), config(rules))).toMatchObject({ decision: 'deny', source: 'default', neededPrompt: true });
    expect(checkPermission(subject('mcp__blocked__x'), config(rules))).toMatchObject({ decision: 'deny', source: 'deny_rule', ruleId: 'mcp_server:blocked' });
  });

  it('matches only the tools of its own server', () => {
    expect(checkPermission(subject('mcp__opener__x'), config(rules)).decision).toBe('deny');
    expect(checkPermission(subject('read'), { ...config(rules), headless: true }).source).not.toBe('allow_rule');
  });

  it('lets no mode, hook or allow rule past a denied server, and lets an allow rule for one tool lift an ask', () => {
    const allowAll = [{ id: 'all', effect: 'allow' as const, tool: '*' }, ...rules];
    expect(checkPermission(subject('mcp__blocked__x'), config(allowAll, { mode: 'bypass' }), { decision: 'allow' }).decision).toBe('deny');
    const one = [{ id: 'one', effect: 'allow' as const, tool: 'mcp__guarded__x' }, ...rules];
    expect(checkPermission(subject('mcp__guarded__x'), config(one))).toMatchObject({ decision: 'allow', ruleId: 'one' });
    expect(checkPermission(subject('mcp__guarded__y'), config(one)).decision).toBe('deny');
  });
});
