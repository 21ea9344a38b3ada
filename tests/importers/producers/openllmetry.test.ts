/**
 * OpenLLMetry (@traceloop/node-server-sdk 0.27.0 with its openai
 * instrumentation) as it really writes a run (openllmetry-run.ts), imported
 * and compared with what the script did.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, jsonReport, readEvents, rows, scratch, type EventLine } from '../helpers.js';
import { runOpenLlmetry, TRACELOOP_VERSION, type OpenLlmetryRun } from './openllmetry-run.js';

let run: OpenLlmetryRun;
let file: string;
beforeAll(async () => {
  run = await runOpenLlmetry();
  file = join(scratch(), 'openllmetry.otlp.json');
  writeFileSync(file, run.request);
}, 400_000);

const pick = (events: EventLine[], event: string, ...keys: string[]) => events.filter((e) => e.event === event).map((e) => keys.map((k) => e[k]));

describe(`OpenLLMetry ${TRACELOOP_VERSION} (SDK workflow/task/tool spans and the openai instrumentation), imported from its real spans`, () => {
  it('gives back the run: one session from the workflow span, the model calls with their finish reasons and tokens, the tool spans in their turn', { timeout: 60_000 }, async () => {
    expect(run.truth).toEqual({ calls: 3, promptTokens: 350, completionTokens: 36, finishReasons: ['tool_calls', 'tool_calls', 'stop'], toolCalls: 3, toolsThrown: 1 });
    // The tool that threw left no span: 0.27.0's withTool ends a span only when the tool's promise resolves.
    expect(run.kinds).toEqual(['chat', 'chat', 'chat', 'task', 'tool', 'tool', 'workflow']);
    const out = join(scratch(), 'events.jsonl');
    const r = await cli(['import', 'otel', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`otel (1 file): ${run.spans} spans = ${run.spans - 1} used + 1 skipped + 0 quarantined`);
    expect(r.stdout).toContain('skipped 1: traceloop.span.kind task (no contract event)');
    // The model asked for 3 calls and 2 tool spans are there: said, not hidden.
    expect(r.stdout).toContain('a trace whose model calls asked for more tool calls than it has tool spans');
    const events = readEvents(out);
    expect(events.filter((e) => e.event === 'session_start')).toHaveLength(1);
    expect(pick(events, 'model_request', 'turn', 'provider', 'model')).toEqual([1, 2, 3].map((t) => [t, 'openai', 'gpt-4.1-mini']));
    // The GenAI conventions' own finish reason (`tool_call`) is a tool turn; the call counts are the recorded output messages'.
    expect(pick(events, 'model_response', 'turn', 'stop_reason', 'stop_class', 'tool_use_count', 'input_tokens', 'output_tokens')).toEqual([
      [1, 'tool_call', 'tool_use', 2, 90, 21],
      [2, 'tool_call', 'tool_use', 1, 120, 9],
      [3, 'stop', 'end_turn', 0, 140, 6],
    ]);
    // Its tool spans carry no call id (the span id stands in), and start in the same millisecond as the next model call.
    expect(pick(events, 'tool_call', 'turn', 'tool').sort()).toEqual([[1, 'get_time'], [1, 'get_weather']]);
    expect(pick(events, 'tool_success', 'turn', 'duration_source').sort()).toEqual([[1, 'measured'], [1, 'measured']]);
    expect(events.filter((e) => e.event === 'tool_failure')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ event: 'session_end', turns: 3, input_tokens: run.truth.promptTokens, output_tokens: run.truth.completionTokens, cache_read_tokens: null });
  });

  it('in a report: tool turns are tool turns, not failed-closed stops', { timeout: 60_000 }, async () => {
    const report = await jsonReport(['--format', 'otel', file]);
    const classes = Object.fromEntries(rows(report, 'model_calls', 'stop_classes').map((r) => [r.stop_class, r.responses]));
    expect(classes).toMatchObject({ tool_use: 2, end_turn: 1, unknown: 0, null: 0 });
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ sessions_started: 1, input_tokens: 350, output_tokens: 36 });
  });
});
