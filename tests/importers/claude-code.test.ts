import { describe, expect, it } from 'vitest';
import { FIXTURES, importFixture, jsonReport, rows } from './helpers.js';

const MAIN = '4f1c9e2a-8b3d-4c55-9a1e-2d7b6f0c3a11';
const DIR = 'claude-code/-home-dev-shop';

describe('claude-code importer', () => {
  it('pairs results by tool_use_id, not order, and counts a tool_use without a result as lost', async () => {
    const { code, events } = await importFixture('claude-code', DIR);
    expect(code).toBe(0);
    const calls = events.filter((e) => e.event === 'tool_call' && e.session_id === MAIN);
    expect(calls.map((e) => (e.event === 'tool_call' ? [e.tool, e.tool_use_id, e.turn] : []))).toEqual([
      ['Read', 'toolu_01', 1],
      ['Bash', 'toolu_02', 2],
      ['Grep', 'toolu_03', 2],
      ['Edit', 'toolu_04', 3],
      ['mcp__github__get_issue', 'toolu_05', 3],
      ['Task', 'toolu_06', 4],
      ['Bash', 'toolu_07', 5],
    ]);
    const results = new Map(events.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure').map((e) => [(e as { tool_use_id: string }).tool_use_id, e]));
    // Grep's result came first, Bash's second: each still pairs with its own call.
    expect(results.get('toolu_03')).toMatchObject({ event: 'tool_success', tool: 'Grep', duration_ms: 200, duration_source: 'timestamps' });
    expect(results.get('toolu_02')).toMatchObject({ event: 'tool_failure', tool: 'Bash', failure_kind: 'tool_error', error_code: null, duration_ms: 4000, duration_source: 'timestamps' });
    // Two results in one message, in reverse order.
    expect(results.get('toolu_05')).toMatchObject({ tool: 'mcp__github__get_issue', output_bytes: 42 });
    expect(results.get('toolu_04')).toMatchObject({ tool: 'Edit', duration_ms: 1000 });
    expect(results.has('toolu_07')).toBe(false);
    expect(calls.find((c) => c.event === 'tool_call' && c.tool.startsWith('mcp__'))).toMatchObject({ source: 'mcp' });
    expect(calls.find((c) => c.event === 'tool_call' && c.tool === 'Read')).toMatchObject({ source: null, batch: null, concurrency_safe: null });
  });

  it('makes a session of each sidechain and subagent transcript, under the main session as its task', async () => {
    const { events } = await importFixture('claude-code', DIR);
    const sessions = events.filter((e) => e.event === 'session_end').map((e) => [e.session_id, e.task_id, (e as { turns: number }).turns]);
    expect(sessions.sort()).toEqual([
      [MAIN, MAIN, 5],
      [`${MAIN}:agent-7f3a9c2e`, MAIN, 2],
      [`${MAIN}:agent-sidechain`, MAIN, 1],
    ]);
    expect(new Set(events.map((e) => e.run_id))).toEqual(new Set([`claude-code:${MAIN}`]));
    const sub = events.filter((e) => e.session_id === `${MAIN}:agent-7f3a9c2e`);
    expect(sub.filter((e) => e.event === 'tool_success').map((e) => (e as { tool: string }).tool)).toEqual(['Grep']);
  });

  it('keeps what the transcript knows (model, stop reason, tokens once per message, hooks, API errors) and leaves the rest null', async () => {
    const { events } = await importFixture('claude-code', DIR);
    const main = events.filter((e) => e.session_id === MAIN);
    const responses = main.filter((e) => e.event === 'model_response');
    // msg_01 is two lines: one response, with the last line's usage and stop reason.
    expect(responses[0]).toMatchObject({ turn: 1, stop_reason: 'tool_use', stop_class: 'tool_use', tool_use_count: 1, input_tokens: 12, output_tokens: 48, cache_write_tokens: 3000, duration_ms: null });
    expect(responses).toHaveLength(5);
    expect(main.filter((e) => e.event === 'model_request')[0]).toMatchObject({ model: 'claude-sonnet-4-5-20250929', provider: null, request_bytes: null, prefix_hash: null, ts: null });
    expect(main.filter((e) => e.event === 'model_error')).toMatchObject([
      { turn: 3, error_kind: 'overloaded', status: 529, attempt: 1, will_retry: true },
      { turn: 6, error_kind: 'rate_limited', status: 429, attempt: null, will_retry: false },
    ]);
    expect(main.filter((e) => e.event === 'hook')).toMatchObject([{ tool: 'Read', tool_use_id: 'toolu_01', hook: 'pre_tool_use', effect: 'none', duration_ms: 35, turn: 1 }]);
    expect(main.find((e) => e.event === 'session_start')).toMatchObject({ permission_mode: 'acceptEdits', defenses_armed: null, tools: null, headless: null, ts: Date.parse('2025-06-01T10:00:00.000Z') });
    expect(main.find((e) => e.event === 'session_end')).toMatchObject({ outcome: null, stop: null, input_tokens: 30, output_tokens: 294, cache_read_tokens: 12840, cache_write_tokens: 3460, duration_ms: 50_000 });
  });

  it('quarantines a line that is not JSON and a result for a call the transcript does not have, by file:line, and counts what it skips', async () => {
    const { stdout, stderr } = await importFixture('claude-code', DIR);
    const file = `${FIXTURES}/${DIR}/${MAIN}.jsonl`;
    expect(stderr).toContain(`${file}:15: not JSON: `);
    expect(stderr).toContain(`${file}:20: tool_result for tool_use toolu_99, which is not in this transcript`);
    expect(stdout).toContain('claude-code (2 files): 27 lines = 22 used + 3 skipped + 2 quarantined -> 42 events');
    expect(stdout).toContain('skipped 1: user/prompt (its text is not logged)');
  });

  it('reports a transcript directory straight away (format recognised by content) and says what is not available in source', async () => {
    const report = await jsonReport([`${FIXTURES}/${DIR}`]);
    expect(report.imports.map((i) => i.format)).toEqual(['claude-code', 'claude-code']);
    expect(report.reconciliation.text).toBe('imported claude-code (2 files): 27 lines = 22 used + 3 skipped + 2 quarantined -> 42 events');
    expect(report.quarantine.map((q) => [q.line, q.kind])).toEqual([[15, 'import'], [20, 'import']]);
    expect(rows(report, 'tool_funnel', 'tool_funnel').find((r) => r.tool === 'Bash')).toMatchObject({ calls: 2, failures: 1, lost: 1 });
    // Timestamp durations are never per-tool latency: they are listed apart.
    expect(rows(report, 'tool_latency', 'tool_latency')).toEqual([]);
    expect(rows(report, 'tool_latency', 'tool_duration_sources').find((r) => r.tool === 'Bash')).toMatchObject({ executed_calls: 1, measured: 0, from_timestamps: 1, p95_ms_from_timestamps: 4000 });
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ sessions_ended: 3, sessions_outcome_not_available_in_source: 3, pass_rate_of_ended_sessions: null });
    // Every figure a transcript leaves blank is listed, so a blank is never read as a zero (prefix hashes included).
    expect(rows(report, 'not_available', 'not_available').map((r) => r.field)).toEqual([
      'session_end.outcome',
      'session_end.stop',
      'session_start.defenses_armed',
      'model_response.duration_ms',
      'model_request.prefix_hash',
    ]);
    expect(report.findings.some((f) => f.text.startsWith('imported claude-code traces: not available in source: tool durations'))).toBe(true);
  });
});

describe('claude-code importer: what the contract cannot carry', () => {
  it('quarantines a line whose event the contract rejects (a 200-character tool_use id), and writes nothing invalid', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { scratch, cli } = await import('./helpers.js');
    const dir = scratch();
    const path = join(dir, 's.jsonl');
    const base = { type: 'assistant', sessionId: 's1', timestamp: '2025-06-01T10:00:00.000Z' };
    writeFileSync(path, [JSON.stringify({ ...base, message: { id: 'm1', role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 'x'.repeat(200), name: 'Read', input: {} }], usage: { input_tokens: 1, output_tokens: 1 } } })].join('\n') + '\n');
    const out = join(dir, 'o.jsonl');
    const r = await cli(['import', 'claude-code', path, '--out', out]);
    expect(r.stderr).toContain(`${path}:1: cannot be written as a contract event: tool_call: tool_use_id: Too big`);
    expect((await cli(['validate', out])).code).toBe(0);
  });
});
