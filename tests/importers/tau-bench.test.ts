import { describe, expect, it } from 'vitest';
import { answerKind, reactAction } from '../../src/importers/tau-bench.js';
import { FIXTURES, importFixture, jsonReport, rows } from './helpers.js';

const FILE = 'tau-bench/tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm.json';
const REACT = 'tau-bench/react-gpt-4o-0.0_range_0-2_user-gpt-4o-llm.json';
const pick = (events: Record<string, unknown>[], event: string, ...keys: string[]) => events.filter((e) => e.event === event).map((e) => keys.map((k) => e[k]));

describe('tau-bench importer (tool-calling and few-shot agents)', () => {
  it('makes each result a session with its outcome from the reward, pairing tool messages with their calls', async () => {
    const { code, events } = await importFixture('tau-bench', FILE);
    expect(code).toBe(0);
    expect(pick(events, 'session_end', 'session_id', 'outcome', 'turns')).toEqual([
      ['task-0-trial-0', 'passed', 3],
      ['task-2-trial-0', 'error', 0],
      ['task-4-trial-0', 'failed', 4],
    ]);
    const t0 = events.filter((e) => e.session_id === 'task-0-trial-0');
    // The two results of turn 1 came back in reverse order; each pairs with its own call.
    expect(pick(t0, 'tool_success', 'tool', 'turn')).toEqual([
      ['get_order_details', 1],
      ['find_user_id_by_name_zip', 1],
      ['exchange_delivered_order_items', 2],
    ]);
    expect(t0.find((e) => e.event === 'tool_success')).toMatchObject({ ts: null, duration_ms: null, output_bytes: 48, empty: false });
    expect(t0.find((e) => e.event === 'model_request')).toMatchObject({ messages_count: 2, model: null });
    expect(t0.find((e) => e.event === 'expectation')).toMatchObject({ id: 'reward', ok: true });
  });

  it('pairs a tool call id reused after its answer with the next call in order, and books "Error: " and "Unknown action" answers as failures', async () => {
    const { events } = await importFixture('tau-bench', FILE);
    const t4 = events.filter((e) => e.session_id === 'task-4-trial-0');
    expect(pick(t4, 'tool_call', 'tool', 'tool_use_id', 'turn')).toEqual([
      ['get_user_details', 'toolu_0', 1],
      ['get_reservation_details', 'toolu_0', 2],
      ['cancel_everything', 'toolu_0', 3],
    ]);
    expect(pick(t4, 'tool_success', 'tool', 'turn')).toEqual([['get_user_details', 1]]);
    expect(pick(t4, 'tool_failure', 'tool', 'failure_kind', 'turn')).toEqual([
      ['get_reservation_details', 'tool_error', 2],
      ['cancel_everything', 'not_found', 3],
    ]);
  });

  it('quarantines a result whole, naming the entry, when one of its entries cannot be paired; nothing of it reaches the figures', async () => {
    const { events, stderr, stdout } = await importFixture('tau-bench', FILE);
    expect(events.filter((e) => e.session_id === 'task-1-trial-0')).toEqual([]);
    expect(stderr).toMatch(new RegExp(`${FIXTURES}/${FILE}:\\d+: traj\\[4\\]: tool message for tool call call_0Zz0, which no earlier assistant message left unanswered`));
    expect(stderr).toMatch(new RegExp(`${FIXTURES}/${FILE}:\\d+: not a tau-bench result \\(needs task_id, reward and traj\\)`));
    expect(stdout).toContain('tau-bench (1 file): 5 results = 3 used + 0 skipped + 2 quarantined -> 35 events');
  });

  it('reports latency and tokens as not available in source, never as zero', async () => {
    const report = await jsonReport([`${FIXTURES}/${FILE}`]);
    expect(rows(report, 'tool_latency', 'tool_latency')).toEqual([]);
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ passed: 1, pass_rate_of_ended_sessions: 1 / 3, input_tokens: null, p95_ms_per_session: null });
    const gaps = rows(report, 'not_available', 'not_available').map((r) => [r.field, r.events_not_available, r.events]);
    expect(gaps).toContainEqual(['tool_success.duration_ms', 4, 4]);
    expect(gaps).toContainEqual(['session_end.input_tokens', 3, 3]);
    expect(rows(report, 'tool_funnel', 'tool_funnel').find((r) => r.tool === '(all tools)')).toMatchObject({ calls: 6, successes: 4, failures: 2, lost: 0 });
  });
});

describe('tau-bench importer (ReAct and Act agents)', () => {
  it('reads the action JSON after "Action:" as a tool call answered by the next "API output: " message', async () => {
    const { code, events, stdout } = await importFixture('tau-bench', REACT);
    expect(code).toBe(0);
    const t0 = events.filter((e) => e.session_id === 'task-0-trial-0');
    expect(pick(t0, 'tool_call', 'tool', 'tool_use_id', 'turn')).toEqual([
      ['find_user_id_by_name_zip', 'traj-2', 1],
      ['get_order_details', 'traj-4', 2],
      ['get_order_details', 'traj-8', 4],
    ]);
    expect(pick(t0, 'tool_failure', 'tool_use_id', 'failure_kind')).toEqual([['traj-4', 'tool_error']]);
    expect(pick(t0, 'tool_success', 'tool_use_id', 'output_bytes')).toEqual([
      ['traj-2', 16],
      ['traj-8', 48],
    ]);
    // respond actions and a final text that is not JSON are replies, as the agent reads them: model calls without tool calls.
    expect(pick(t0, 'model_response', 'turn', 'tool_use_count')).toEqual([[1, 1], [2, 1], [3, 0], [4, 1], [5, 0]]);
    expect(pick(events.filter((e) => e.session_id === 'task-1-trial-0'), 'tool_failure', 'tool', 'failure_kind')).toEqual([['cancel_everything', 'not_found']]);
    expect(stdout).toContain('2 results = 2 used + 0 skipped + 0 quarantined');
    expect(stdout).not.toContain('warning');
  });

  it('warns, per result, when a trajectory carries no tool call in any shape, instead of reporting 0 calls as a fact', async () => {
    const { stdout, events } = await importFixture('tau-bench', 'tau-bench/no-tool-shape.json');
    expect(events.filter((e) => e.event === 'model_response')).toHaveLength(1);
    expect(stdout).toContain('warning (1 result): a trajectory with assistant messages in no shape that carries tool calls');
    const report = await jsonReport([`${FIXTURES}/tau-bench/no-tool-shape.json`]);
    expect(report.findings.map((f) => f.text)).toContainEqual(expect.stringContaining('imported tau-bench traces: 1 result: a trajectory with assistant messages in no shape'));
  });

  it('classifies answers and actions as tau-bench writes them', () => {
    expect(answerKind('Error: KeyError')).toBe('tool_error');
    expect(answerKind('Unknown action foo')).toBe('not_found');
    expect(answerKind('{"error": "x"}')).toBeNull();
    expect(reactAction('Thought:\nx\nAction:\n{"name": "get", "arguments": {}}')).toEqual({ name: 'get' });
    expect(reactAction('Action:\nnot json')).toBeNull();
    expect(reactAction('no action here')).toBeNull();
  });
});
