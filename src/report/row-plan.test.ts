import { describe, expect, it } from 'vitest';
import { hiddenText, planRows, zeroText } from './row-plan.js';

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

describe('a long section cut to its failing rows and a head', () => {
  const funnel = ['tool', 'calls', 'successes', 'failures', 'failures_execution', 'lost'];
  // 20 tools that all succeeded, and two late in the order with a tool_error or an exception (counts, not flags).
  const tools = [
    ...Array.from({ length: 20 }, (_, i) => ({ tool: `t${String(i).padStart(2, '0')}`, calls: 5, successes: 5, failures: 0, failures_execution: 0, lost: 0 })),
    { tool: 'zz_tool_error', calls: 5, successes: 3, failures: 2, failures_execution: 2, lost: 0 },
    { tool: 'zz_exception', calls: 5, successes: 4, failures: 1, failures_execution: 1, lost: 0 },
  ];

  it('shows the tools with failures first and never counts them among the rows "none failing" hides', () => {
    const plan = planRows({ id: 'tool_funnel', columns: funnel, rows: tools });
    expect(plan.shown.slice(0, 2).map((r) => r.tool)).toEqual(['zz_tool_error', 'zz_exception']);
    expect(plan.hiddenRows.map((r) => r.tool)).not.toContain('zz_tool_error');
    expect(hiddenText(plan)).toBe('… 14 more tools, none failing, none with failures (failing = a value flagged red or yellow; with failures = a failure, error or lost count > 0)');
  });

  it('counts the hidden rows with failures when there are more than its head shows', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ tool: `f${String(i).padStart(2, '0')}`, calls: 5, successes: 4, failures: 1, failures_execution: 1, lost: 0 }));
    const plan = planRows({ id: 'tool_funnel', columns: funnel, rows: [...tools, ...many] });
    expect(hiddenText(plan)).toMatch(/^… 54 more tools, none failing, 34 with failures \(failing = /);
  });
});
