import { describe, expect, it } from 'vitest';
import { FIXTURES, cli, importFixture, jsonReport, rows } from './helpers.js';

const A = '5b0c6d1e-0000-4000-8000-00000000000a';
const B = '5b0c6d1e-0000-4000-8000-00000000000b';
const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);
const pick = (events: Record<string, unknown>[], event: string, ...keys: string[]) => events.filter((e) => e.event === event).map((e) => keys.map((k) => e[k]));

describe('tau2-bench importer', () => {
  it('reads a results.json with simulations: a session per simulation, model calls, tool calls paired in order, tool errors from the error flag', async () => {
    const { code, events, stdout, stderr } = await importFixture('tau2-bench', 'tau2-bench/json/results.json');
    expect(code).toBe(0);
    expect(stdout).toContain('tau2-bench (1 file): 4 simulations = 2 used + 1 skipped + 1 quarantined');
    expect(stdout).toContain('skipped 1: full-duplex (voice) simulation: ticks, no messages');
    expect(stderr).toMatch(/results\.json:\d+: messages\[2\]: tool message for tool call call_8, which no earlier assistant message left unanswered/);
    expect(events.filter((e) => String(e.session_id).endsWith('c'))).toEqual([]);
    const a = events.filter((e) => e.session_id === A);
    expect(a[0]).toMatchObject({ event: 'session_start', run_id: 'tau2-bench:json', task_id: '0', repeat: 0, ts: T0 });
    // The scripted greeting is no model call: three assistant messages with usage are.
    expect(pick(a, 'model_response', 'turn', 'duration_ms', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'tool_use_count')).toEqual([
      [1, 1000, 1200, 20, null, 1],
      [2, 1250, 276, 40, 1024, 2],
      [3, 1500, 376, 12, 1024, 0],
    ]);
    expect(a.find((e) => e.event === 'model_request')).toMatchObject({ model: 'gpt-4.1-mini', ts: T0 + 1000 });
    expect(pick(a, 'tool_success', 'tool_use_id', 'duration_ms', 'duration_source')).toEqual([
      ['call_1', 250, 'timestamps'],
      ['call_3', 500, 'timestamps'],
    ]);
    expect(pick(a, 'tool_failure', 'tool_use_id', 'failure_kind', 'duration_ms')).toEqual([['call_2', 'tool_error', 500]]);
    expect(a.at(-1)).toMatchObject({ event: 'session_end', outcome: 'passed', stop: null, turns: 3, input_tokens: 1852, output_tokens: 72, cache_read_tokens: null, duration_ms: 9500, ts: T0 + 9500 });
  });

  it('answers a MultiToolMessage call by call, leaves the simulated user\'s tool calls out, and a reused id pairs in order', async () => {
    const { events } = await importFixture('tau2-bench', 'tau2-bench/json/results.json');
    const b = events.filter((e) => e.session_id === B);
    expect(pick(b, 'tool_call', 'tool', 'tool_use_id', 'turn')).toEqual([
      ['cancel_reservation', 'call_1', 1],
      ['get_user_details', 'call_1b', 1],
      ['cancel_reservation', 'call_1', 2],
    ]);
    expect(pick(b, 'tool_success', 'tool_use_id', 'turn', 'duration_ms')).toEqual([['call_1', 1, 1000]]);
    expect(pick(b, 'tool_failure', 'tool_use_id', 'failure_kind')).toEqual([['call_1b', 'tool_error']]);
    expect(b.at(-1)).toMatchObject({ outcome: 'failed', stop: 'max_turns', turns: 2, input_tokens: 1900, output_tokens: 55 });
  });

  it('reads the dir format (results.json + simulations/) once, also when the directory is named, and warns of an indexed simulation without a file', async () => {
    const viaResults = await importFixture('tau2-bench', 'tau2-bench/dir/results.json');
    expect(viaResults.stdout).toContain('tau2-bench (1 file): 2 simulations = 2 used + 0 skipped + 0 quarantined');
    expect(viaResults.stdout).toContain('warning (1 simulation): listed in simulation_index with no file in simulations/ (not read)');
    const viaDir = await importFixture('tau2-bench', 'tau2-bench/dir');
    expect(viaDir.stdout).toContain('tau2-bench (1 file): 2 simulations = 2 used + 0 skipped + 0 quarantined');
    expect(viaDir.events.filter((e) => e.event === 'session_start').map((e) => [e.session_id, e.run_id])).toEqual([
      [A, 'tau2-bench:dir'],
      [B, 'tau2-bench:dir'],
    ]);
    // The same session events as the json format.
    const json = await importFixture('tau2-bench', 'tau2-bench/json/results.json');
    const strip = (es: Record<string, unknown>[]) => es.filter((e) => e.session_id === A).map(({ run_id: _r, seq: _s, ...rest }) => rest);
    expect(strip(viaDir.events)).toEqual(strip(json.events));
  });

  it('reads one simulation file named alone, with the model from its results.json', async () => {
    const { events, stdout } = await importFixture('tau2-bench', `tau2-bench/dir/simulations/${A}.json`);
    expect(stdout).toContain('1 simulation = 1 used');
    expect(events.find((e) => e.event === 'model_request')).toMatchObject({ model: 'gpt-4.1-mini', run_id: 'tau2-bench:dir' });
  });

  it('is recognised by content in a report, with pass rate, tool funnel and failure kinds', async () => {
    const report = await jsonReport([`${FIXTURES}/tau2-bench/json/results.json`]);
    expect(report.imports[0]).toMatchObject({ format: 'tau2-bench', records: 4, used: 2, quarantined: 1 });
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ passed: 1, sessions_ended: 2 });
    expect(rows(report, 'tool_funnel', 'tool_funnel').find((r) => r.tool === '(all tools)')).toMatchObject({ calls: 6, successes: 3, failures: 2, lost: 1 });
    const r = await cli(['report', `${FIXTURES}/tau2-bench/dir`]);
    expect(r.code).toBe(0);
  });
});
