import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection, type Analysis } from '../../src/analysis/report-model.js';
import { findings, findingText } from '../../src/report/findings.js';
import { README_REFS } from '../../src/report/readme-refs.js';
import { toJsonReport } from '../../src/report/json.js';
import { goldenLines } from './golden-trace.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

let analysis: Analysis;
const rows = (id: string) => findSection(analysis, id)?.rows ?? [];
const byKey = (id: string, key: string, value: unknown) => rows(id).find((r) => r[key] === value);

beforeAll(async () => {
  analysis = await analyzeTraces([writeTrace(tempDir(), 'golden.jsonl', goldenLines())]);
});

describe('durations not timed by the executing harness', () => {
  it('stay out of per-tool percentiles: turn-scoped (lab) and timestamp-derived (imported) durations are not tool timings', async () => {
    const trace = writeTrace(tempDir(), 'sources.jsonl', [
      line(ev.toolSuccess('s1', 'read', 't1', 10)),
      line({ ...ev.toolSuccess('s1', 'read', 't2', 20), duration_source: 'measured' }),
      line({ ...ev.toolSuccess('s1', 'read', 't3', 5000), duration_source: 'turn' }),
      line({ ...ev.toolFailure('s1', 'read', 't4', 'tool_error', 9000), duration_source: 'timestamps' }),
    ]);
    const a = await analyzeTraces([trace]);
    expect(a.load).toMatchObject({ linesRead: 4, eventsUsed: 4, quarantined: [] });
    expect(findSection(a, 'tool_latency')?.rows).toEqual([
      expect.objectContaining({ tool: 'read', executed_calls: 2, max_ms_of_executed: 20 }),
    ]);
  });
});

describe('golden trace', () => {
  it('uses every line', () => {
    expect(analysis.load).toMatchObject({ linesRead: goldenLines().length, eventsUsed: goldenLines().length, quarantined: [] });
  });

  it('tool funnel counts calls, successes, failures and flags the lost bash call', () => {
    expect(byKey('tool_funnel', 'tool', 'read')).toMatchObject({ calls: 5, successes: 3, failures: 2, failures_pre_execution: 1, failures_execution: 1, cut_short: 0, lost: 0, executed: 4, tool_errors: 1, exceptions: 0, tool_error_rate_of_executed: 0.25, exception_rate_of_executed: 0, success_rate_of_calls: 0.6 });
    expect(rows('tool_funnel')[0]).not.toHaveProperty('success_rate_of_executed');
    expect(byKey('tool_funnel', 'tool', 'bash')).toMatchObject({ calls: 4, successes: 1, failures: 2, failures_execution: 2, lost: 1, executed: 3 });
    expect(byKey('tool_funnel', 'tool', 'bash')?.exception_rate_of_executed).toBeCloseTo(1 / 3, 12);
    expect(byKey('tool_funnel', 'tool', 'bash')?.tool_error_rate_of_executed).toBe(0);
    expect(byKey('tool_funnel', 'tool', '<unknown>')).toMatchObject({ calls: 1, failures_pre_execution: 1, lost: 0, executed: 0, tool_error_rate_of_executed: null, exception_rate_of_executed: null });
    expect(byKey('tool_funnel', 'tool', '(all tools)')).toMatchObject({ calls: 10, successes: 4, failures: 5, failures_pre_execution: 2, failures_execution: 3, lost: 1, executed: 7 });
  });

  it('keeps pre-execution kinds apart and exception apart from tool_error', () => {
    const kinds = rows('failure_kinds').map((r) => [r.tool, r.phase, r.failure_kind, r.failures, r.rate_of_calls]);
    expect(kinds).toEqual([
      ['<unknown>', 'pre_execution', 'not_found', 1, 1],
      ['bash', 'execution', 'exception', 1, 0.25],
      ['bash', 'execution', 'timeout', 1, 0.25],
      ['read', 'pre_execution', 'permission_denied', 1, 0.2],
      ['read', 'execution', 'tool_error', 1, 0.2],
    ]);
    expect(byKey('failure_kind_totals', 'failure_kind', 'exception')).toMatchObject({ phase: 'execution', failures: 1, rate_of_all_calls: 0.1 });
    expect(byKey('failure_kind_totals', 'failure_kind', 'tool_error')).toMatchObject({ phase: 'execution', failures: 1, rate_of_all_calls: 0.1 });
    expect(byKey('failure_kind_totals', 'failure_kind', 'aborted')).toMatchObject({ failures: 0 });
  });

  it('computes exact per-tool percentiles over executed calls only (the 0 ms denial is excluded)', () => {
    // read executed: [10, 20, 30, 40]; bash executed: [100, 300, 500]
    expect(byKey('tool_latency', 'tool', 'read')).toMatchObject({ executed_calls: 4, p50_ms_of_executed: 25, max_ms_of_executed: 40 });
    expect(byKey('tool_latency', 'tool', 'read')?.p95_ms_of_executed).toBeCloseTo(38.5, 9);
    expect(byKey('tool_latency', 'tool', 'read')?.p99_ms_of_executed).toBeCloseTo(39.7, 9);
    expect(byKey('tool_latency', 'tool', 'bash')).toMatchObject({ executed_calls: 3, p50_ms_of_executed: 300, max_ms_of_executed: 500 });
    expect(byKey('tool_latency', 'tool', 'bash')?.p95_ms_of_executed).toBeCloseTo(480, 9);
    expect(byKey('tool_latency', 'tool', '<unknown>')).toBeUndefined();
  });

  it('reports the permission funnel and the prompt rate over all decisions', () => {
    expect(rows('permission_summary')[0]).toMatchObject({ decisions: 5, prompted: 2, prompt_rate_of_decisions: 0.4, allowed: 2, asked: 2, denied: 1, deny_rate_of_decisions: 0.2 });
    const ask = rows('permission_funnel').find((r) => r.decision === 'ask');
    expect(ask).toMatchObject({ source: 'user', needed_prompt: true, decisions: 2, share_of_decisions: 0.4 });
  });

  it('triages every defense: firing, unreached, unwired, disarmed, unknown', () => {
    const d = (name: string) => byKey('defenses', 'defense', name);
    expect(d('identical_call_loop')).toMatchObject({ sessions_armed: 2, evaluations: 15, triggers: 2, sessions_with_trigger: 1, trigger_rate_of_armed_sessions: 0.5, triggers_match_stats: true, triage: 'firing' });
    expect(d('identical_call_loop')?.trigger_rate_of_evaluations).toBeCloseTo(2 / 15, 12);
    expect(d('denial_fuse')).toMatchObject({ sessions_armed: 1, evaluations: 4, triggers: 0, triage: 'unreached' });
    expect(d('low_yield_spin')).toMatchObject({ sessions_armed: 1, evaluations: 3, triage: 'unreached' });
    expect(d('token_budget')).toMatchObject({ sessions_armed: 1, evaluations: 0, triage: 'unwired' });
    // s3's harness says it implements cut_tool_call_guard and armed nothing: switched off.
    expect(d('cut_tool_call_guard')).toMatchObject({ sessions_armed: 0, triage: 'disarmed', evidence: expect.stringMatching(/^implemented, armed in no session/) });
    // No session's harness lists spill_read_loop among what it implements.
    expect(d('spill_read_loop')).toMatchObject({ sessions_armed: 0, triage: 'unknown', evidence: "no session's harness implements it" });
    expect(d('token_budget')?.evidence).toBe('its evaluation point is not recorded: check that the code it guards ran');
  });

  it('summarises sessions: outcomes, the session that never ended, cache-read share', () => {
    expect(rows('session_summary')[0]).toMatchObject({ sessions_started: 3, sessions_ended: 2, sessions_without_end: 1, passed: 1, pass_rate_of_ended_sessions: 0.5, turns: 4, p50_turns_per_session: 2, max_turns_per_session: 3 });
    expect(rows('session_summary')[0]?.cache_read_share_of_prompt_tokens).toBeCloseTo(300 / 700, 12);
    expect(byKey('session_stops', 'stop', 'max_turns')).toMatchObject({ sessions: 1, share_of_ended_sessions: 0.5 });
  });

  it('counts model errors, retries and null stop classes', () => {
    expect(rows('model_summary')[0]).toMatchObject({ requests: 3, responses: 2, errors: 1, errors_retried: 1, retry_rate_of_errors: 1 });
    expect(rows('model_summary')[0]?.error_rate_of_requests).toBeCloseTo(1 / 3, 12);
    expect(byKey('stop_classes', 'stop_class', 'null')).toMatchObject({ responses: 1, share_of_responses: 0.5 });
    expect(byKey('stop_classes', 'stop_class', 'unknown')).toMatchObject({ responses: 0 });
    expect(byKey('model_errors', 'error_kind', 'rate_limited')).toMatchObject({ errors: 1, retried: 1 });
  });

  it('counts expectations per id, failing ids first, over checked expectations', () => {
    // checked: s1 e1 e2 (pass), s2 e3 e1 (fail) e2 (pass), s3 e2 (fail)
    expect(rows('expectation_summary')).toEqual([{ checked: 6, failed: 3, fail_rate_of_checked: 0.5, sessions_checked: 3, sessions_with_failed_check: 2 }]);
    expect(rows('expectations').map((r) => [r.id, r.tasks, r.checked, r.failed])).toEqual([
      ['e3', 1, 1, 1],
      ['e1', 2, 2, 1],
      ['e2', 3, 3, 1],
    ]);
    expect(byKey('expectations', 'id', 'e3')?.fail_rate_of_checked).toBe(1);
    expect(byKey('expectations', 'id', 'e1')?.fail_rate_of_checked).toBe(0.5);
    expect(byKey('expectations', 'id', 'e2')?.fail_rate_of_checked).toBeCloseTo(1 / 3, 12);
  });

  it('lists failed expectations by task, then session, in check order, with their detail', () => {
    expect(findSection(analysis, 'expectation_failures')).toMatchObject({ columns: ['session_id', 'task_id', 'id', 'detail'], totalRows: 3 });
    expect(rows('expectation_failures')).toEqual([
      { session_id: 's2', task_id: 'task-s2', id: 'e3', detail: 'answer contains "42"' },
      { session_id: 's2', task_id: 'task-s2', id: 'e1', detail: 'stop was max_turns' },
      { session_id: 's3', task_id: 'task-s3', id: 'e2', detail: 'no answer <b>at all</b>' },
    ]);
    expect(findings(analysis).map((f) => f.text)).toContain('3 expectations failed in 2 sessions (see Failed expectations)');
  });

  it('says "1 session", not "1 sessions", in findings', () => {
    const texts = findings(analysis).map((f) => f.text);
    expect(texts).toContain(
      '1 session cut short (session_start without session_end: the run was killed or lost events); counted neither passed nor failed, pass rates are over the 2 ended sessions',
    );
    // the analysis's evidence says why
    expect(texts).toContain('defense token_budget: unwired — its evaluation point is not recorded: check that the code it guards ran');
    // a shipped defense no task reached or triggered is named in one line with the others, not a finding each
    expect(texts.filter((t) => t.includes('low_yield_spin'))).toEqual([expect.stringMatching(/^\d+ shipped defenses? this run never reached or triggered \(no task here targets (it|them)\b.*: (\w+, )*low_yield_spin(, \w+)*$/)]);
  });

  it('says why in words and points to a README section, never to the design notes', () => {
    const found = findings(analysis);
    expect(found.map((f) => findingText(f)).join('\n')).not.toMatch(/§|seed/);
    const unwired = found.find((f) => f.text.startsWith('defense token_budget: unwired'));
    expect(unwired?.see).toEqual(README_REFS.defenseTriage);
    expect(findingText(unwired!)).toMatch(/ \(README › Defense triage\)$/);
    // errors first, then warnings
    const levels = found.map((f) => f.level);
    expect(levels).toEqual([...levels].sort());
  });
});

describe('failed expectations beyond the cap', () => {
  it('keeps the first 50 in order and states the total, in the section and in JSON', async () => {
    const lines = [ev.sessionStart('s1')];
    for (let i = 0; i < 60; i++) lines.push(ev.expectation('s1', `check-${String(i).padStart(2, '0')}`, false, `detail ${i}`));
    const many = await analyzeTraces([writeTrace(tempDir(), 'many.jsonl', lines.map(line))]);
    const section = findSection(many, 'expectation_failures');
    expect(section?.totalRows).toBe(60);
    expect(section?.rows).toHaveLength(50);
    expect(section?.rows.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => `check-${String(i).padStart(2, '0')}`));
    expect(findSection(many, 'expectation_summary')?.rows[0]).toMatchObject({ checked: 60, failed: 60, fail_rate_of_checked: 1 });
    const json = toJsonReport(many) as { reports: { expectations: { expectation_failures: { total_rows: number; rows: unknown[] } } } };
    expect(json.reports.expectations.expectation_failures.total_rows).toBe(60);
    expect(json.reports.expectations.expectation_failures.rows).toHaveLength(50);
  });
});
