import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, jsonReport, readEvents, rows, scratch } from '../helpers.js';
import { runAiSdk, type AiSdkRun } from './ai-sdk-run.js';

/** The run's OTLP/JSON, one request per line as a collector's file exporter writes it, imported. */
async function imported(run: AiSdkRun) {
  const dir = scratch();
  const file = join(dir, 'ai-sdk.otlp.jsonl');
  writeFileSync(file, run.requests.map((r) => `${r}\n`).join(''));
  const out = join(dir, 'events.jsonl');
  const r = await cli(['import', 'otel', file, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  return { file, stdout: r.stdout, events: readEvents(out) };
}

describe.each(['generate', 'stream'] as const)('Vercel AI SDK 6 telemetry (%sText), imported from its real spans', (mode) => {
  it('gives back what the run did: one session, its model calls, tool calls, the thrown tool, tokens and finish reasons', { timeout: 60_000 }, async () => {
    const run = await runAiSdk(mode);
    // What the script made the SDK do (its own result says so too).
    expect(run.truth).toEqual({ steps: 3, toolCalls: 3, toolErrors: 1, inputTokens: 580, outputTokens: 60, finishReasons: ['tool-calls', 'tool-calls', 'stop'] });
    const { events, stdout } = await imported(run);
    expect(stdout).toContain(`otel (1 file): ${run.spans} spans = ${run.spans} used + 0 skipped + 0 quarantined`);
    expect(events.filter((e) => e.event === 'session_start')).toHaveLength(1);
    const responses = events.filter((e) => e.event === 'model_response');
    expect(responses.map((e) => [e.turn, e.stop_reason, e.stop_class, e.tool_use_count, e.input_tokens, e.output_tokens])).toEqual([
      [1, 'tool-calls', 'tool_use', 2, 120, 30],
      [2, 'tool-calls', 'tool_use', 1, 200, 12],
      [3, 'stop', 'end_turn', 0, 260, 18],
    ]);
    expect(events.filter((e) => e.event === 'model_request').map((e) => [e.provider, e.model])).toEqual(Array(3).fill(['anthropic.messages', 'claude-sonnet-4-5']));
    expect(events.filter((e) => e.event === 'tool_call').map((e) => [e.tool, e.turn])).toEqual([
      ['get_weather', 1],
      ['get_time', 1],
      ['get_weather', 2],
    ]);
    expect(events.filter((e) => e.event === 'tool_success').map((e) => e.tool_use_id).sort()).toEqual(['toolu_mock_1_0', 'toolu_mock_1_1']);
    expect(events.filter((e) => e.event === 'tool_failure').map((e) => [e.tool_use_id, e.failure_kind])).toEqual([['toolu_mock_2_0', 'tool_error']]);
    if (mode === 'stream') for (const r of responses) expect(r.ttft_ms).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ event: 'session_end', turns: 3, input_tokens: 580, output_tokens: 60, cache_read_tokens: 0 });
  });
});

describe('Vercel AI SDK 6 telemetry in a report', () => {
  it('reports no tool turn as a failed-closed stop, and the tool funnel as the run had it', { timeout: 60_000 }, async () => {
    const { file } = await imported(await runAiSdk('generate'));
    const report = await jsonReport(['--format', 'otel', file]);
    const classes = Object.fromEntries(rows(report, 'model_calls', 'stop_classes').map((r) => [r.stop_class, r.responses]));
    expect(classes).toMatchObject({ tool_use: 2, end_turn: 1, unknown: 0, null: 0 });
    expect(rows(report, 'tool_funnel', 'tool_funnel').find((r) => r.tool === '(all tools)')).toMatchObject({ calls: 3, successes: 2, failures: 1, lost: 0 });
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ sessions_started: 1, input_tokens: 580, output_tokens: 60 });
  });
});
