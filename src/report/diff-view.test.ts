import { describe, expect, it } from 'vitest';
import { diffView } from './diff-view.js';

describe('diffView', () => {
  it('reads base → candidate in one cell and an interval in one cell, numbers right-aligned', () => {
    const view = diffView({
      columns: ['phase', 'failure_kind', 'base_failures', 'base_rate_of_all_calls', 'candidate_failures', 'candidate_rate_of_all_calls', 'rate_change_ci95_low', 'rate_change_ci95_high'],
      rows: [
        { phase: 'execution', failure_kind: 'timeout', base_failures: 1, base_rate_of_all_calls: 0.1, candidate_failures: 3, candidate_rate_of_all_calls: 0.3, rate_change_ci95_low: -0.05, rate_change_ci95_high: 0.45 },
        { phase: 'execution', failure_kind: 'aborted', base_failures: 0, base_rate_of_all_calls: 0, candidate_failures: 0, candidate_rate_of_all_calls: 0, rate_change_ci95_low: 0, rate_change_ci95_high: 0 },
        { phase: 'execution', failure_kind: 'exception', base_failures: 0, base_rate_of_all_calls: 0, candidate_failures: 2, candidate_rate_of_all_calls: 0.2, rate_change_ci95_low: 0.01, rate_change_ci95_high: 0.4 },
      ],
    });
    expect(view.table?.head).toEqual(['phase', 'failure_kind', 'failures', 'rate_of_all_calls', 'rate_change_ci95']);
    expect(view.table?.headAlign).toEqual(['left', 'left', 'right', 'right', 'right']);
    expect(view.table?.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['execution', 'timeout', '1 → 3', '10.0% → 30.0%', '-5.0% .. 45.0%'],
      ['execution', 'exception', '0 → 2', '0.0% → 20.0%', '1.0% .. 40.0%'],
    ]);
    expect(view.notes).toEqual(['0 on both sides: aborted']);
  });

  it('names the rows only one side has, when there is no change to show', () => {
    const view = diffView({
      columns: ['tool', 'base_executed_calls', 'base_p95_ms', 'candidate_executed_calls', 'candidate_p95_ms', 'p95_change_rate'],
      rows: [
        { tool: 'read', base_executed_calls: 5, base_p95_ms: 100, candidate_executed_calls: 5, candidate_p95_ms: 150, p95_change_rate: 0.5 },
        { tool: 'sleep', base_executed_calls: 0, base_p95_ms: null, candidate_executed_calls: 4, candidate_p95_ms: 900, p95_change_rate: null },
        { tool: 'gone', base_executed_calls: 2, base_p95_ms: 9, candidate_executed_calls: 0, candidate_p95_ms: null, p95_change_rate: null },
      ],
    });
    expect(view.table?.rows.map((r) => r[0]?.text)).toEqual(['read']);
    expect(view.notes).toEqual(['only in base: gone', 'only in candidate: sleep']);
  });

  it('lays a one-row table out as metric/value pairs', () => {
    const view = diffView({
      columns: ['base_passed', 'base_pass_rate_ci95_low', 'base_pass_rate_ci95_high', 'candidate_passed', 'candidate_pass_rate_ci95_low', 'candidate_pass_rate_ci95_high', 'pass_rate_change'],
      rows: [{ base_passed: 9, base_pass_rate_ci95_low: 0.6, base_pass_rate_ci95_high: 0.98, candidate_passed: 8, candidate_pass_rate_ci95_low: 0.5, candidate_pass_rate_ci95_high: 0.95, pass_rate_change: -0.1 }],
    });
    expect(view.table).toBeNull();
    expect(view.pairs.map((p) => [p.name, p.value.text])).toEqual([
      ['passed', '9 → 8'],
      ['pass_rate_ci95', '60.0% .. 98.0% → 50.0% .. 95.0%'],
      ['pass_rate_change', '-10.0%'],
    ]);
  });
});
