import { describe, expect, it } from 'vitest';
import { FIXTURES, importFixture, jsonReport, rows } from './helpers.js';

const FILE = 'tau-bench/tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm.json';

describe('tau-bench importer', () => {
  it('makes each result a session with its outcome from the reward, pairing tool messages by tool_call_id', async () => {
    const { code, events } = await importFixture('tau-bench', FILE);
    expect(code).toBe(0);
    const ends = events.filter((e) => e.event === 'session_end').map((e) => [e.session_id, (e as { outcome: string }).outcome, (e as { turns: number }).turns]);
    expect(ends).toEqual([
      ['task-0-trial-0', 'passed', 3],
      ['task-1-trial-0', 'failed', 2],
      ['task-2-trial-0', 'error', 0],
    ]);
    const t0 = events.filter((e) => e.session_id === 'task-0-trial-0');
    // The two results of turn 1 came back in reverse order; each pairs with its own call.
    expect(t0.filter((e) => e.event === 'tool_success').map((e) => [(e as { tool: string }).tool, (e as { turn: number }).turn])).toEqual([
      ['get_order_details', 1],
      ['find_user_id_by_name_zip', 1],
      ['exchange_delivered_order_items', 2],
    ]);
    expect(t0.find((e) => e.event === 'tool_success')).toMatchObject({ ts: null, duration_ms: null, output_bytes: 48, empty: false });
    expect(t0.find((e) => e.event === 'model_request')).toMatchObject({ messages_count: 2, model: null });
    expect(t0.find((e) => e.event === 'expectation')).toMatchObject({ id: 'reward', ok: true });
  });

  it('leaves a call without a tool message lost, and quarantines a tool message for a call never made and a result with no reward', async () => {
    const { events, stderr, stdout } = await importFixture('tau-bench', FILE);
    const t1 = events.filter((e) => e.session_id === 'task-1-trial-0');
    expect(t1.filter((e) => e.event === 'tool_call')).toHaveLength(2);
    expect(t1.filter((e) => e.event === 'tool_success')).toHaveLength(1);
    expect(stderr).toContain(`${FIXTURES}/${FILE}:39: traj[4]: tool message for tool call call_0Zz0, which no assistant message issued`);
    expect(stderr).toContain(`${FIXTURES}/${FILE}:68: not a tau-bench result (needs task_id, reward and traj)`);
    expect(stdout).toContain('tau-bench (1 file): 4 results = 2 used + 0 skipped + 2 quarantined -> 28 events');
  });

  it('reports latency and tokens as not available in source, never as zero', async () => {
    const report = await jsonReport([`${FIXTURES}/${FILE}`]);
    expect(rows(report, 'tool_latency', 'tool_latency')).toEqual([]);
    expect(rows(report, 'tool_latency', 'tool_duration_sources').every((r) => r.not_available_in_source === r.executed_calls)).toBe(true);
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ passed: 1, pass_rate_of_ended_sessions: 1 / 3, input_tokens: null, p95_ms_per_session: null });
    const gaps = rows(report, 'not_available', 'not_available').map((r) => [r.field, r.events_not_available, r.events]);
    expect(gaps).toContainEqual(['tool_success.duration_ms', 4, 4]);
    expect(gaps).toContainEqual(['session_end.input_tokens', 3, 3]);
    expect(rows(report, 'tool_funnel', 'tool_funnel').find((r) => r.tool === '(all tools)')).toMatchObject({ calls: 5, successes: 4, lost: 1 });
  });
});
