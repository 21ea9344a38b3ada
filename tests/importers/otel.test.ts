import { describe, expect, it } from 'vitest';
import { FIXTURES, importFixture } from './helpers.js';

const A = '4bf92f3577b34da6a3ce929d0e0e4736';
const B = '5af7183fb1d4cf5f6a3ce929d0e0e473';
const OI = '0af7651916cd43dd8448eb211c80319c';

describe('otel importer', () => {
  it('maps GenAI semconv spans: invoke_agent -> session, chat -> model call, execute_tool -> tool call with error.type', async () => {
    const { code, events } = await importFixture('otel', 'otel/genai-export.json');
    expect(code).toBe(0);
    const a = events.filter((e) => e.session_id === A);
    expect(a[0]).toMatchObject({ event: 'session_start', task_id: 'Support', ts: 1717236000000 });
    // Spans arrive out of order (a tool span before its agent); events follow span start times.
    expect(a.map((e) => e.event)).toEqual(['session_start', 'model_request', 'model_response', 'tool_call', 'tool_success', 'tool_call', 'tool_failure', 'model_request', 'model_response', 'session_end']);
    expect(a.find((e) => e.event === 'model_response')).toMatchObject({ turn: 1, stop_reason: 'tool_calls', stop_class: 'tool_use', duration_ms: 1800, input_tokens: 176, cache_read_tokens: 1024, output_tokens: 45 });
    expect(a.filter((e) => e.event === 'tool_call').map((e) => [(e as { tool: string }).tool, (e as { tool_use_id: string }).tool_use_id, (e as { turn: number }).turn])).toEqual([
      ['get_order', 'call_Vh3bX1', 1],
      ['refund_order', 'call_Qm81Zp', 1],
    ]);
    expect(a.find((e) => e.event === 'tool_success')).toMatchObject({ duration_ms: 250, duration_source: 'measured' });
    // error.type is not a contract failure kind: the kind stays tool_error and the type is kept as the error code.
    expect(a.find((e) => e.event === 'tool_failure')).toMatchObject({ failure_kind: 'tool_error', error_code: 'PaymentDeclined', duration_ms: 500 });
    expect(a.at(-1)).toMatchObject({ event: 'session_end', outcome: null, stop: null, turns: 2, duration_ms: 9000 });
  });

  it('reads an errored chat span as a model error by its status code, and sums tokens over answered calls only', async () => {
    const { events } = await importFixture('otel', 'otel/genai-export.json');
    const b = events.filter((e) => e.session_id === B);
    expect(b.find((e) => e.event === 'model_error')).toMatchObject({ turn: 1, error_kind: 'rate_limited', status: 429, attempt: null, will_retry: null });
    expect(b.find((e) => e.event === 'session_end')).toMatchObject({ input_tokens: 900, output_tokens: 30, turns: 2 });
  });

  it('quarantines spans whose ids or times are not OTLP/JSON, at their line, and counts spans of no GenAI kind', async () => {
    const { stdout, stderr } = await importFixture('otel', 'otel/genai-export.json');
    const file = `${FIXTURES}/otel/genai-export.json`;
    expect(stderr).toContain(`${file}:156: resourceSpans[1]: traceId is not 32 lowercase hex digits (OTLP/JSON encodes ids as hex): "S/kvNXezTaajzpKdDg5HNg=="`);
    expect(stderr).toContain(`${file}:168: resourceSpans[1]: span 8d9e0f1a2b3c4d5e: startTimeUnixNano/endTimeUnixNano are not unix nanos with end >= start`);
    expect(stdout).toContain('otel (1 file): 11 spans = 8 used + 1 skipped + 2 quarantined');
    expect(stdout).toContain('skipped 1: gen_ai.operation.name embeddings (no contract event)');
  });

  it('maps OpenInference spans (AGENT, LLM with llm.token_count.*, TOOL) whose trace is split over lines, and quarantines a torn line', async () => {
    const { events, stdout, stderr } = await importFixture('otel', 'otel/openinference.jsonl');
    const s = events.filter((e) => e.session_id === OI);
    expect(s.map((e) => e.event)).toEqual(['session_start', 'model_request', 'model_response', 'tool_call', 'tool_success', 'session_end']);
    expect(s.find((e) => e.event === 'model_request')).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(s.find((e) => e.event === 'model_response')).toMatchObject({ input_tokens: 244, cache_read_tokens: 256, output_tokens: 40, stop_class: null });
    // A TOOL span without tool.id: the span id stands for the call id.
    expect(s.find((e) => e.event === 'tool_call')).toMatchObject({ tool: 'search_docs', tool_use_id: 'b7ad6b7169203331', turn: 1 });
    expect(stderr).toContain(`${FIXTURES}/otel/openinference.jsonl:3: not JSON: `);
    expect(stdout).toContain('otel (1 file): 5 spans = 3 used + 1 skipped + 1 quarantined -> 6 events');
  });
});
