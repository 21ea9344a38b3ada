import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishReasonClass } from '../../src/importers/otel-vocab.js';
import { FIXTURES, cli, readEvents, scratch } from './helpers.js';
import { runAiSdk } from './producers/ai-sdk-run.js';

type Request = { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };

describe('otel importer: traces across files', () => {
  it('joins the spans of one trace split over two files (a rotated exporter file) into one session, each span booked in its own file', { timeout: 60_000 }, async () => {
    const run = await runAiSdk('generate');
    const request = JSON.parse(run.requests[0] as string) as Request;
    const spans = request.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const half = (part: unknown[]) => JSON.stringify({ resourceSpans: [{ ...request.resourceSpans[0], scopeSpans: [{ ...request.resourceSpans[0]?.scopeSpans[0], spans: part }] }] });
    const dir = scratch();
    writeFileSync(join(dir, 'a.otlp.jsonl'), `${half(spans.slice(0, 3))}\n`);
    writeFileSync(join(dir, 'b.otlp.jsonl'), `${half(spans.slice(3))}\n`);
    const out = join(dir, 'events.jsonl');
    const r = await cli(['import', 'otel', dir, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`otel (2 files): ${spans.length} spans = ${spans.length} used + 0 skipped + 0 quarantined`);
    const events = readEvents(out);
    expect(events.filter((e) => e.event === 'session_start')).toHaveLength(1);
    expect(events.filter((e) => e.event === 'model_request')).toHaveLength(3);
    expect(events.filter((e) => e.event === 'tool_call')).toHaveLength(3);
  });
});

describe('finish reasons as the GenAI conventions and the AI SDK spell them', () => {
  it('classes tool_call and tool-calls as tool turns, and an unrecorded reason as not available', () => {
    expect(['tool_call', 'tool-calls', 'tool_calls', 'tool_use'].map(finishReasonClass)).toEqual(['tool_use', 'tool_use', 'tool_use', 'tool_use']);
    expect(['stop', 'length', 'content-filter', 'content_filter'].map(finishReasonClass)).toEqual(['end_turn', 'max_tokens', 'content_filter', 'content_filter']);
    expect(finishReasonClass('error')).toBe('unknown');
    expect(finishReasonClass(null)).toBeNull();
  });

  it('classes Gemini\'s finish reasons, as the API and as Google\'s instrumentation (lower-cased) spell them; MALFORMED_FUNCTION_CALL stays unknown', () => {
    expect(['STOP', 'stop', 'MAX_TOKENS', 'max_tokens', 'SAFETY', 'safety', 'RECITATION', 'prohibited_content'].map(finishReasonClass)).toEqual(['end_turn', 'end_turn', 'max_tokens', 'max_tokens', 'content_filter', 'content_filter', 'content_filter', 'content_filter']);
    expect(['MALFORMED_FUNCTION_CALL', 'malformed_function_call'].map(finishReasonClass)).toEqual(['unknown', 'unknown']);
  });
});

describe('export otel of an imported trace, imported back', () => {
  const strip = (events: Record<string, unknown>[]) => events.map(({ seq: _s, v: _v, run_id: _r, ...rest }) => rest).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  it.each([
    ['tau-bench', 'tau-bench/tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm.json'],
    ['claude-code', 'claude-code/-home-dev-shop'],
    ['tau2-bench', 'tau2-bench/json/results.json'],
  ])('gives back the %s import event for event: unknown times stay null, dates are kept, a retry stays a retry', async (format, path) => {
    const dir = scratch();
    const first = join(dir, 'first.jsonl');
    expect((await cli(['import', format, join(FIXTURES, path), '--out', first])).code).toBe(0);
    const otlp = join(dir, 'x.otlp.jsonl');
    const exported = await cli(['export', 'otel', first, '--out', otlp]);
    expect(exported.code, exported.stderr).toBe(0);
    const back = join(dir, 'back.jsonl');
    const again = await cli(['import', 'otel', otlp, '--out', back]);
    expect(again.code, again.stderr).toBe(0);
    expect(strip(readEvents(back))).toEqual(strip(readEvents(first)));
  });
});

describe('otel importer: spans that start in the same millisecond', () => {
  it('puts a tool span that starts with a model call in the turn before it, whichever the file lists first', async () => {
    const ms = (n: number) => String(1_796_000_000_000_000_000n + BigInt(n) * 1_000_000n);
    const attrs = (o: Record<string, string | number>) => Object.entries(o).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: v } : { stringValue: v } }));
    const span = (id: string, start: number, end: number, a: Record<string, string | number>) => ({ traceId: 'a'.repeat(32), spanId: id.repeat(16), startTimeUnixNano: ms(start), endTimeUnixNano: ms(end), attributes: attrs(a) });
    const chat = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' };
    // Starts stamped in whole milliseconds (as OpenLLMetry's SDK does): the tool and the second call share one.
    const spans = [
      span('2', 20, 30, chat),
      span('1', 0, 10, chat),
      span('3', 20, 20, { 'traceloop.span.kind': 'tool', 'traceloop.entity.name': 'get_time' }),
    ];
    const dir = scratch();
    const file = join(dir, 'tie.otlp.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }));
    const out = join(dir, 'events.jsonl');
    expect((await cli(['import', 'otel', file, '--out', out])).code).toBe(0);
    expect(readEvents(out).filter((e) => e.event === 'tool_call').map((e) => [e.tool, e.turn])).toEqual([['get_time', 1]]);
  });
});
