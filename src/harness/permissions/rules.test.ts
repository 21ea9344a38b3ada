import { describe, expect, it } from 'vitest';
import { findCoveringAllow, findMatchingRule, globMatch, type MatchUnit } from './rules.js';
import type { PermissionRule } from './types.js';

const unit = (s: string): MatchUnit => ({ anyForms: [s], allowForms: [s] });

describe('rule matching', () => {
  it('treats * as any run of characters and everything else literally', () => {
    expect(globMatch('git push*', 'git push origin main')).toBe(true);
    expect(globMatch('git push*', 'git status')).toBe(false);
    expect(globMatch('a.b', 'axb')).toBe(false);
    expect(globMatch('src/*.ts', 'src/a.ts')).toBe(true);
  });

  it('matches deny rules on any unit and allow rules only when every unit is covered', () => {
    const rules: PermissionRule[] = [
      { id: 'ls', effect: 'allow', tool: 'bash', pattern: 'ls*' },
      { id: 'wc', effect: 'allow', tool: 'bash', pattern: 'wc *' },
      { id: 'rm', effect: 'deny', tool: 'bash', pattern: 'rm *' },
    ];
    expect(findMatchingRule(rules, 'deny', 'bash', [unit('ls'), unit('rm -rf x')])?.id).toBe('rm');
    expect(findCoveringAllow(rules, 'bash', [unit('ls'), unit('rm -rf x')])).toBeNull();
    expect(findCoveringAllow(rules, 'bash', [unit('ls -la'), unit('wc -l')])?.id).toBe('ls');
  });

  it('applies a rule without pattern to every call of its tool, and * to every tool', () => {
    const rules: PermissionRule[] = [{ id: 'all', effect: 'deny', tool: '*' }];
    expect(findMatchingRule(rules, 'deny', 'read', [])?.id).toBe('all');
    expect(findCoveringAllow([{ id: 'p', effect: 'allow', tool: 'read', pattern: '*' }], 'read', [])).toBeNull();
  });
});
