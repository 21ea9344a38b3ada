import { describe, expect, it } from 'vitest';
import { FIXTURES, importFixture, jsonReport, rows } from './helpers.js';

const T1 = 'trace_9f2c4e1a7b3d4c8e9a0b1c2d3e4f5a6b';
const T2 = 'trace_1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6';

describe('openai-agents importer', () => {
  it('maps function, response and mcp_tools spans of a trace, whatever order they were exported in', async () => {
    const { code, events } = await importFixture('openai-agents', 'openai-agents/spans.jsonl');
    expect(code).toBe(0);
    const t = events.filter((e) => e.session_id === T1);
    expect(t[0]).toMatchObject({ event: 'session_start', task_id: 'Billing support', tools: ['lookup_account', 'issue_refund'], defenses_armed: ['external_guardrail'] });
    expect(t.find((e) => e.event === 'model_response')).toMatchObject({ turn: 1, input_tokens: 308, cache_read_tokens: 512, output_tokens: 38, duration_ms: 1950, stop_class: null });
    expect(t.filter((e) => e.event === 'tool_call').map((e) => [(e as { tool: string }).tool, (e as { turn: number }).turn, (e as { source: string | null }).source])).toEqual([
      ['lookup_account', 1, null],
      ['issue_refund', 2, 'mcp'],
      ['notify_customer', 2, null],
    ]);
    expect(t.find((e) => e.event === 'tool_success')).toMatchObject({ tool: 'lookup_account', tool_use_id: 'span_fn_lookup01', duration_ms: 360, duration_source: 'measured' });
    expect(t.find((e) => e.event === 'tool_failure')).toMatchObject({ tool: 'issue_refund', failure_kind: 'tool_error', duration_ms: 1200 });
    expect(t.find((e) => e.event === 'mcp_server')).toMatchObject({ server: 'stripe', state: 'connected', duration_ms: 25 });
    // notify_customer never ended: a call with no result, so the funnel counts it as lost.
    expect(t.some((e) => (e.event === 'tool_success' || e.event === 'tool_failure') && e.tool === 'notify_customer')).toBe(false);
  });

  it('turns guardrail spans into evaluations of external_guardrail under their own names, a triggered one also into a trigger', async () => {
    const { events } = await importFixture('openai-agents', 'openai-agents/spans.jsonl');
    expect(events.filter((e) => e.event === 'defense_stats').map((e) => [e.session_id, (e as { external_name: string }).external_name, (e as { evaluated: number }).evaluated, (e as { triggered: number }).triggered]).sort()).toEqual([
      [T2, 'jailbreak_check', 1, 1],
      [T1, 'pii_check', 1, 0],
    ]);
    expect(events.filter((e) => e.event === 'defense_trigger')).toMatchObject([{ session_id: T2, defense: 'external_guardrail', action: 'stop', external_name: 'jailbreak_check' }]);
    const report = await jsonReport(['--format', 'openai-agents', `${FIXTURES}/openai-agents/spans.jsonl`]);
    expect(rows(report, 'defense_report', 'defenses').filter((r) => r.defense === 'external_guardrail')).toMatchObject([{ sessions_armed: 2, evaluations: 2, triggers: 1, triage: 'firing' }]);
  });

  it('reads a {"data": [...]} batch document, quarantining an item with no trace id or a bad time at its line', async () => {
    const lines = await importFixture('openai-agents', 'openai-agents/spans.jsonl');
    expect(lines.stderr).toContain(`${FIXTURES}/openai-agents/spans.jsonl:11: span without an id or a trace_id`);
    expect(lines.stdout).toContain('skipped 1: handoff span (no contract event)');
    const batch = await importFixture('openai-agents', 'openai-agents/batch.json');
    expect(batch.stderr).toContain(`${FIXTURES}/openai-agents/batch.json:47: span span_bad_time001: started_at is not an ISO 8601 time`);
    expect(batch.stdout).toContain('openai-agents (1 file): 5 items = 3 used + 1 skipped + 1 quarantined -> 6 events');
    expect(batch.events.find((e) => e.event === 'model_request')).toMatchObject({ model: 'gpt-4o-mini', task_id: 'Order status' });
  });
});
