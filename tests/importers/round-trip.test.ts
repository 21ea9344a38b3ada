import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ev, line, writeTrace } from '../analysis/fixtures.js';
import { goldenLines } from '../analysis/golden-trace.js';
import { cli, jsonReport, readEvents, rows, scratch } from './helpers.js';
import { otlpProblems } from './otlp-official.js';

/** Every report section a round trip must give back row for row. */
const SECTIONS: [string, string][] = [
  ['tool_funnel', 'tool_funnel'],
  ['tool_latency', 'tool_latency'],
  ['tool_latency', 'latency_histogram'],
  ['failure_kinds', 'failure_kinds'],
  ['failure_kinds', 'failure_kind_totals'],
  ['permission_funnel', 'permission_funnel'],
  ['defense_report', 'defenses'],
  ['sessions', 'session_summary'],
  ['sessions', 'session_outcomes'],
  ['sessions', 'session_stops'],
  ['model_calls', 'model_summary'],
  ['model_calls', 'stop_classes'],
  ['model_calls', 'model_errors'],
  ['expectations', 'expectations'],
];

async function roundTrip(lines: string[]) {
  const dir = scratch();
  const trace = writeTrace(dir, 'trace.jsonl', lines);
  const otlp = join(dir, 'trace.otlp.jsonl');
  const exported = await cli(['export', 'otel', trace, '--out', otlp]);
  expect(exported.code, exported.stderr).toBe(0);
  return { trace, otlp, exported, before: await jsonReport([trace]), after: await jsonReport(['--format', 'otel', otlp]) };
}

describe('export otel, then import otel', () => {
  let golden: Awaited<ReturnType<typeof roundTrip>>;
  beforeAll(async () => {
    golden = await roundTrip(goldenLines());
  });

  it('gives back the same tool funnel, latencies, failure kinds, permissions, defenses, sessions, model calls and expectations', () => {
    const { before, after, exported } = golden;
    expect(exported.stdout).toMatch(/exported \d+ spans \(3 sessions, 3 model calls, 10 tool calls\)/);
    for (const [report, section] of SECTIONS) expect(rows(after, report, section), `${report}.${section}`).toEqual(rows(before, report, section));
    // The lost bash call and the session that never ended survive the trip.
    expect(rows(after, 'tool_funnel', 'tool_funnel').find((r) => r.tool === 'bash')).toMatchObject({ lost: 1 });
    expect(rows(after, 'sessions', 'session_summary')[0]).toMatchObject({ sessions_started: 3, sessions_ended: 2, sessions_without_end: 1 });
    expect(after.quarantine).toEqual([]);
  });

  it('keeps fractional durations to the nanosecond', async () => {
    const lines = [line(ev.sessionStart('s9')), ...[12.3456789, 0.000412, 987.654321].flatMap((ms, i) => [line(ev.toolCall('s9', 'grep', `g${i}`)), line(ev.toolSuccess('s9', 'grep', `g${i}`, ms))]), line(ev.sessionEnd('s9', 'passed'))];
    const { otlp, before, after } = await roundTrip(lines);
    const [b] = rows(before, 'tool_latency', 'tool_latency');
    const [a] = rows(after, 'tool_latency', 'tool_latency');
    for (const k of ['p50_ms_of_executed', 'p95_ms_of_executed', 'p99_ms_of_executed', 'max_ms_of_executed']) expect(a?.[k] as number).toBeCloseTo(b?.[k] as number, 6);
    const dir = scratch();
    const back = join(dir, 'back.jsonl');
    expect((await cli(['import', 'otel', otlp, '--out', back])).code).toBe(0);
    const durations = readEvents(back).flatMap((e) => (e.event === 'tool_success' ? [e.duration_ms] : []));
    expect(durations.sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual([0.000412, 12.345679, 987.654321]);
  });

  it('writes requests the official OTLP protobuf definitions accept unchanged', () => {
    const requests = readFileSync(golden.otlp, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) expect(otlpProblems(r)).toEqual([]);
  });
});
