import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readEvents, scratch } from '../helpers.js';
import { runOpenInference } from './openinference-run.js';

describe('OpenInference instrumentation of the openai client, imported from its real spans', () => {
  it('gives back the run: one session formed by trace id (said), two model calls with tokens, finish reasons and tool-call counts', { timeout: 60_000 }, async () => {
    const run = await runOpenInference();
    expect(run.truth).toEqual({ calls: 2, promptTokens: 230, completionTokens: 27, finishReasons: ['tool_calls', 'stop'], toolCalls: 2 });
    const dir = scratch();
    const file = join(dir, 'oi.otlp.json');
    writeFileSync(file, run.request);
    const out = join(dir, 'events.jsonl');
    const r = await cli(['import', 'otel', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    // The app's own `run` span is of no GenAI kind: skipped and counted; the two LLM spans are one session (one trace).
    expect(r.stdout).toContain(`otel (1 file): ${run.spans} spans = ${run.spans - 1} used + 1 skipped + 0 quarantined`);
    expect(r.stdout).toContain('warning (1 span): a trace with no session span');
    const events = readEvents(out);
    expect(events.filter((e) => e.event === 'session_start')).toHaveLength(1);
    expect(events.filter((e) => e.event === 'model_response').map((e) => [e.turn, e.stop_reason, e.stop_class, e.tool_use_count, e.input_tokens, e.output_tokens, e.cache_read_tokens])).toEqual([
      [1, 'tool_calls', 'tool_use', 2, 90, 21, 0],
      [2, 'stop', 'end_turn', 0, 140, 6, 0],
    ]);
    expect(events.filter((e) => e.event === 'model_request').map((e) => [e.provider, e.model])).toEqual(Array(2).fill(['openai', 'gpt-4.1-mini']));
    expect(events.at(-1)).toMatchObject({ event: 'session_end', turns: 2, input_tokens: run.truth.promptTokens, output_tokens: run.truth.completionTokens });
  });
});
