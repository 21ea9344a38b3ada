/**
 * A session is (run_id, session_id) in every report: two runs of another
 * harness that both number their sessions `sess-0001` are two sessions to
 * the defense report, MCP servers, expectations, conformance and sessions
 * alike. One definition (the session_key macro) is used by every .sql file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

const DEFENSE = 'cut_tool_call_guard';

/** One run of `runId` whose only session is `sess-0001`: armed, evaluated, triggered, checked, with an MCP server and a lab check. */
function runOf(runId: string, ended: boolean): string[] {
  const s = 'sess-0001';
  const scope = { session_id: s, task_id: 'task' };
  const events = [
    ev.sessionStart(s, [DEFENSE]),
    ev.modelRequest(s),
    { ...ev.defenseTrigger(s, DEFENSE) },
    ev.defenseStats(s, DEFENSE, 3, 1),
    ev.expectation(s, 'stop', true, 'ok'),
    { v: 1, ts: 1_700_000_000_000, seq: 0, event: 'mcp_server', ...scope, server: 'docs', state: 'connected', duration_ms: 5, attempt: 1 },
    { v: 1, ts: 1_700_000_000_000, seq: 0, event: 'conformance_stats', ...scope, check_id: 'orphan_tool_use', severity: 'error', evaluated: 1, violations: 0 },
    ...(ended ? [ev.sessionEnd(s, 'passed')] : []),
  ];
  return events.map((e, i) => line({ ...e, run_id: runId, seq: i + 1 }));
}

describe('a session is (run_id, session_id) in every report', () => {
  it('counts two runs sharing a session id as two sessions everywhere', async () => {
    const path = writeTrace(tempDir(), 'two-runs.jsonl', [...runOf('run-a', true), ...runOf('run-b', false)]);
    const a = await analyzeTraces([path]);
    expect(a.load.quarantined).toEqual([]);
    const row = (section: string, where: (r: Record<string, unknown>) => boolean = () => true) => findSection(a, section)?.rows.find(where);
    expect(row('defenses', (r) => r.defense === DEFENSE)).toMatchObject({ sessions_armed: 2, sessions_with_trigger: 2, trigger_rate_of_armed_sessions: 1 });
    expect(row('mcp_servers')).toMatchObject({ sessions: 2, sessions_connected: 2, sessions_never_connected: 0 });
    expect(row('mcp_server_states')).toMatchObject({ sessions: 2 });
    expect(row('expectation_summary')).toMatchObject({ sessions_checked: 2 });
    expect(row('conformance_summary')).toMatchObject({ lab_sessions: 2 });
    expect(row('session_summary')).toMatchObject({ sessions_started: 2, sessions_ended: 1, sessions_without_end: 1 });
    expect(row('run_summary')).toMatchObject({ sessions_cut_short: 1 });
  });

  it('keys sessions with session_key(...) (or run_id, session_id side by side) in every .sql file: no DISTINCT, join, GROUP BY or PARTITION BY on a bare session_id', () => {
    const dir = new URL('../../src/analysis/sql/', import.meta.url);
    const offences: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
      const code = readFileSync(new URL(file, dir), 'utf8')
        .replace(/--[^\n]*/g, '')
        .replace(/session_key\([^()]*\)/g, 'KEY')
        // The key's two columns side by side are the key too (a window over them is faster than over the struct).
        .replace(/\b((?:\w+\.)?)run_id\s*,\s*\1session_id\b/g, 'KEY');
      const rules: [string, RegExp][] = [
        ['DISTINCT on session_id', /DISTINCT\s*\(?[\w.\s,]*\bsession_id\b/i],
        ['join or match on session_id', /\bsession_id\s*=|=\s*[\w.]*\bsession_id\b/i],
        ['GROUP BY / PARTITION BY session_id', /(GROUP|PARTITION)\s+BY\s+[\w.\s,]*\bsession_id\b/i],
      ];
      for (const [rule, re] of rules) if (re.test(code)) offences.push(`${file}: ${rule}`);
    }
    expect(offences).toEqual([]);
  });
});
