import { describe, expect, it } from 'vitest';
import { planRows, zeroText } from './row-plan.js';

const columns = ['defense', 'sessions_armed', 'evaluations', 'triage'];
const row = (defense: string, triage: string) => ({ defense, sessions_armed: 0, evaluations: 0, triage });

describe('zero rows', () => {
  it('are named on one line per class, with the class they share', () => {
    const plan = planRows({ id: 'defenses', columns, rows: [row('a', 'unknown'), row('b', 'disarmed'), row('c', 'unknown'), row('d', 'disarmed')] });
    expect(plan.shown).toEqual([]);
    expect(zeroText(plan, columns)).toEqual(['0 in every count (triage unknown): a, c', '0 in every count (triage disarmed): b, d']);
  });

  it('leave a lone row of its class as a row', () => {
    const plan = planRows({ id: 'defenses', columns, rows: [row('a', 'unknown'), row('b', 'disarmed'), row('c', 'unknown')] });
    expect(plan.shown.map((r) => r.defense)).toEqual(['b']);
    expect(zeroText(plan, columns)).toEqual(['0 in every count (triage unknown): a, c']);
  });

  it('share a line across labels that do not class them (failure kinds of both phases)', () => {
    const kinds = ['phase', 'failure_kind', 'failures'];
    const rows = [
      { phase: 'pre_execution', failure_kind: 'not_found', failures: 0 },
      { phase: 'pre_execution', failure_kind: 'hook_blocked', failures: 0 },
      { phase: 'execution', failure_kind: 'aborted', failures: 0 },
    ];
    expect(zeroText(planRows({ id: 'failure_kinds', columns: kinds, rows }), kinds)).toEqual(['0 in every count: not_found, hook_blocked, aborted']);
  });
});
