import { describe, expect, it } from 'vitest';
import type { EventInput } from '../events/index.js';
import { emptyUsage, mergeUsage, outcomeTokens, usageOfEvents } from './session-usage.js';

const ids = { run_id: 'r', session_id: 's', task_id: 't' };
const response = (turn: number, input: number | null, output: number): EventInput =>
  ({ event: 'model_response', ...ids, turn, duration_ms: 1, ttft_ms: null, stop_reason: 'tool_use', stop_class: 'tool_use', tool_use_count: 1, input_tokens: input, output_tokens: output, cache_read_tokens: 5, cache_write_tokens: 0 }) as EventInput;
const request = (turn: number): EventInput => ({ event: 'model_request', ...ids, turn }) as unknown as EventInput;

describe('a session usage from its events', () => {
  it('sums the model_response tokens and takes the highest turn of any turn event (a request whose answer never came counts)', () => {
    const usage = usageOfEvents([request(1), response(1, 100, 20), request(2), response(2, 50, 10), request(3)]);
    expect(usage).toEqual({ turns: 3, input_tokens: 150, output_tokens: 30, cache_read_tokens: 10, cache_write_tokens: 0 });
    expect(outcomeTokens(usage)).toBe(180);
  });

  it('keeps a total null when one response did not record it, and merges batches in order', () => {
    const first = usageOfEvents([response(1, null, 20)]);
    const second = usageOfEvents([request(2), response(2, 40, 5)]);
    const merged = emptyUsage();
    mergeUsage(merged, first);
    mergeUsage(merged, second);
    expect(merged).toEqual({ turns: 2, input_tokens: null, output_tokens: 25, cache_read_tokens: 10, cache_write_tokens: 0 });
  });
});
