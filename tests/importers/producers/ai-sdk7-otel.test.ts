/**
 * AI SDK 7 (ai 7.0.173 with @ai-sdk/otel 1.0.173) on Node 20, both of its
 * telemetry integrations, run against the mock (ai-sdk7-run.ts), imported
 * and compared with what the script made the SDK do.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, jsonReport, readEvents, rows, scratch, type EventLine } from '../helpers.js';
import { runAiSdk7, type AiSdk7Run } from './ai-sdk7-run.js';

async function imported(run: AiSdk7Run) {
  const dir = scratch();
  const file = join(dir, 'ai-sdk7.otlp.json');
  writeFileSync(file, run.request);
  const out = join(dir, 'events.jsonl');
  const r = await cli(['import', 'otel', file, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  return { file, stdout: r.stdout, events: readEvents(out) };
}

const pick = (events: EventLine[], event: string, ...keys: string[]) => events.filter((e) => e.event === event).map((e) => keys.map((k) => e[k]));

/** What the script did, whichever integration recorded it. */
function expectTheRun(run: AiSdk7Run, events: EventLine[], provider: string) {
  // The SDK's own result: 3 steps, 3 tool calls, 1 thrown; its inputTokens count the 50 cached ones.
  expect(run.truth).toEqual({ steps: 3, toolCalls: 3, toolErrors: 1, inputTokens: 630, outputTokens: 60, finishReasons: ['tool-calls', 'tool-calls', 'stop'] });
  expect(events.filter((e) => e.event === 'session_start')).toHaveLength(1);
  expect(pick(events, 'model_request', 'turn', 'provider', 'model')).toEqual([1, 2, 3].map((t) => [t, provider, 'claude-sonnet-4-5']));
  // The contract's input_tokens are the uncached ones (the SDK's and OTel's include cache reads).
  expect(pick(events, 'model_response', 'turn', 'stop_reason', 'stop_class', 'tool_use_count', 'input_tokens', 'output_tokens', 'cache_read_tokens')).toEqual([
    [1, 'tool-calls', 'tool_use', 2, 120, 30, 50],
    [2, 'tool-calls', 'tool_use', 1, 200, 12, 0],
    [3, 'stop', 'end_turn', 0, 260, 18, 0],
  ]);
  expect(pick(events, 'tool_call', 'turn', 'tool', 'tool_use_id').sort()).toEqual([
    [1, 'get_time', 'toolu_mock_1_1'],
    [1, 'get_weather', 'toolu_mock_1_0'],
    [2, 'get_weather', 'toolu_mock_2_0'],
  ]);
  expect(pick(events, 'tool_success', 'tool_use_id').sort()).toEqual([['toolu_mock_1_0'], ['toolu_mock_1_1']]);
  expect(pick(events, 'tool_failure', 'tool_use_id', 'failure_kind')).toEqual([['toolu_mock_2_0', 'tool_error']]);
  expect(events.at(-1)).toMatchObject({ event: 'session_end', turns: 3, input_tokens: 580, output_tokens: 60, cache_read_tokens: 50, cache_write_tokens: 0 });
}

const durations = (events: EventLine[]) => Object.fromEntries(events.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure').map((e) => [e.tool_use_id, [e.duration_ms, e.duration_source]]));

describe('AI SDK 7 with @ai-sdk/otel OpenTelemetry (GenAI semantic-convention spans), imported from its real spans', () => {
  it('gives back the run; agent_step spans are skipped and counted; each tool\'s duration is its own recorded time', { timeout: 60_000 }, async () => {
    const run = await runAiSdk7('semconv');
    expect(run.names).toEqual(['chat', 'chat', 'chat', 'execute_tool', 'execute_tool', 'execute_tool', 'invoke_agent', 'step', 'step', 'step']);
    const { events, stdout } = await imported(run);
    expect(stdout).toContain(`otel (1 file): ${run.spans} spans = 7 used + 3 skipped + 0 quarantined`);
    expect(stdout).toContain('skipped 3: gen_ai.operation.name agent_step (no contract event)');
    expectTheRun(run, events, 'anthropic');
    // gen_ai.execute_tool.duration is the SDK's own timing of the tool's execute (the span runs longer): the same, to the microsecond.
    const got = durations(events);
    expect(Object.keys(run.sdkMs).sort()).toEqual(Object.keys(got).sort());
    for (const [id, ms] of Object.entries(run.sdkMs)) {
      expect(got[id]?.[1]).toBe('measured');
      expect(got[id]?.[0], id).toBeCloseTo(ms, 2);
      expect(ms).toBeGreaterThanOrEqual((run.ownMs[id] as number) - 1);
    }
  });

  it('in a report: no tool turn is a failed-closed stop, and the tool funnel is the run\'s', { timeout: 60_000 }, async () => {
    const { file } = await imported(await runAiSdk7('semconv'));
    const report = await jsonReport(['--format', 'otel', file]);
    const classes = Object.fromEntries(rows(report, 'model_calls', 'stop_classes').map((r) => [r.stop_class, r.responses]));
    expect(classes).toMatchObject({ tool_use: 2, end_turn: 1, unknown: 0, null: 0 });
    expect(rows(report, 'tool_funnel', 'tool_funnel').find((r) => r.tool === '(all tools)')).toMatchObject({ calls: 3, successes: 2, failures: 1, lost: 0 });
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ sessions_started: 1, input_tokens: 580, output_tokens: 60 });
  });
});

describe('AI SDK 7 with @ai-sdk/otel LegacyOpenTelemetry (the ai.* spans of ai 6), imported from its real spans', () => {
  it('gives back the run; tool durations are the spans\' own, which cover the body', { timeout: 60_000 }, async () => {
    const run = await runAiSdk7('legacy');
    const { events, stdout } = await imported(run);
    expect(stdout).toContain(`otel (1 file): ${run.spans} spans = ${run.spans} used + 0 skipped + 0 quarantined`);
    expectTheRun(run, events, 'anthropic.messages');
    const got = durations(events);
    for (const [id, own] of Object.entries(run.ownMs)) expect(got[id]?.[0] as number).toBeGreaterThanOrEqual(own - 1);
  });
});
