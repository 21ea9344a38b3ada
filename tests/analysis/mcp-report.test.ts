/**
 * MCP in the report: MCP tools appear in every per-tool section like any
 * tool (funnel, failure kinds with `unavailable` apart from `not_found`,
 * latency), and the mcp_servers report reads the mcp_server states.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection, type Analysis } from '../../src/analysis/report-model.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

let seq = 10_000;
const mcp = (s: string, server: string, state: string, f: Record<string, unknown> = {}) =>
  line({ v: 1, ts: 1_700_000_100_000 + seq, seq: ++seq, run_id: 'r1', event: 'mcp_server', session_id: s, task_id: `task-${s}`, server, state, duration_ms: 0, ...f });

const ECHO = 'mcp__everything__echo';
const SUM = 'mcp__everything__get-sum';
let analysis: Analysis;
const rows = (id: string) => findSection(analysis, id)?.rows ?? [];

beforeAll(async () => {
  analysis = await analyzeTraces([
    writeTrace(tempDir(), 'mcp.jsonl', [
      line(ev.sessionStart('s1')),
      mcp('s1', 'everything', 'connecting', { attempt: 1 }),
      mcp('s1', 'everything', 'connected', { attempt: 1, duration_ms: 400, tools_listed: 13 }),
      line(ev.toolCall('s1', ECHO, 't1', { source: 'mcp' })),
      line(ev.toolSuccess('s1', ECHO, 't1', 12)),
      line(ev.toolCall('s1', SUM, 't2', { source: 'mcp' })),
      line(ev.toolFailure('s1', SUM, 't2', 'tool_error', 30)),
      mcp('s1', 'everything', 'disconnected', { duration_ms: 900, will_retry: true, error_code: 'closed' }),
      mcp('s1', 'everything', 'connecting', { attempt: 1 }),
      mcp('s1', 'everything', 'failed', { attempt: 1, duration_ms: 50, will_retry: true, error_code: 'ENOENT' }),
      mcp('s1', 'everything', 'connecting', { attempt: 2 }),
      mcp('s1', 'everything', 'connected', { attempt: 2, duration_ms: 600, tools_listed: 14, tools_changed: 1 }),
      mcp('s1', 'everything', 'connected', { tools_listed: 14, tools_changed: 2 }),
      line(ev.toolCall('s1', ECHO, 't3', { source: 'mcp' })),
      line(ev.toolFailure('s1', ECHO, 't3', 'unavailable', 0)),
      line(ev.sessionStart('s2')),
      mcp('s2', 'slow', 'connecting', { attempt: 1 }),
      mcp('s2', 'slow', 'timeout', { attempt: 1, duration_ms: 30_000, will_retry: false, error_code: 'connect_timeout' }),
    ]),
  ]);
});

describe('MCP in the report', () => {
  it('uses every line', () => {
    expect(analysis.load.quarantined).toEqual([]);
  });

  it('lists MCP tools in the funnel, the failure kinds and the latency', () => {
    expect(rows('tool_funnel').find((r) => r.tool === ECHO)).toMatchObject({ calls: 2, successes: 1, failures: 1, failures_pre_execution: 1, lost: 0 });
    expect(rows('failure_kinds').map((r) => [r.tool, r.phase, r.failure_kind])).toEqual(
      expect.arrayContaining([
        [ECHO, 'pre_execution', 'unavailable'],
        [SUM, 'execution', 'tool_error'],
      ]),
    );
    expect(rows('failure_kind_totals').find((r) => r.failure_kind === 'unavailable')).toMatchObject({ phase: 'pre_execution', failures: 1 });
    // `unavailable` is pre-execution: its 0 ms stays out of the latency.
    expect(rows('tool_latency').find((r) => r.tool === ECHO)).toMatchObject({ executed_calls: 1, max_ms_of_executed: 12 });
    expect(rows('tool_latency').find((r) => r.tool === SUM)).toMatchObject({ executed_calls: 1 });
  });

  it('sums each server up: connects, failed attempts, gave up, disconnects, tools and changes', () => {
    expect(rows('mcp_servers')).toEqual([
      {
        server: 'everything',
        sessions: 1,
        sessions_connected: 1,
        sessions_never_connected: 0,
        connects: 2,
        failed_attempts: 1,
        gave_up: 0,
        disconnects: 1,
        tools_listed_max: 14,
        tools_changed: 3,
        connect_p50_ms: 500,
        connect_max_ms: 600,
      },
      {
        server: 'slow',
        sessions: 1,
        sessions_connected: 0,
        sessions_never_connected: 1,
        connects: 0,
        failed_attempts: 1,
        gave_up: 1,
        disconnects: 0,
        tools_listed_max: null,
        tools_changed: 0,
        connect_p50_ms: null,
        connect_max_ms: null,
      },
    ]);
  });

  it('lists the states per server in lifecycle order with their error codes', () => {
    expect(rows('mcp_server_states').map((r) => [r.server, r.state, r.error_code, r.events])).toEqual([
      ['everything', 'connecting', '', 3],
      ['everything', 'connected', '', 3],
      ['everything', 'disconnected', 'closed', 1],
      ['everything', 'failed', 'ENOENT', 1],
      ['slow', 'connecting', '', 1],
      ['slow', 'timeout', 'connect_timeout', 1],
    ]);
    expect(renderTerminal(analysis, { color: false })).toContain('MCP servers per server');
  });
});
