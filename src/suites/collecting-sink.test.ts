import { describe, expect, it } from 'vitest';
import { RunEmitter } from '../events/emitter.js';
import { MemorySink } from '../events/sink.js';
import { CollectingSink } from './collecting-sink.js';
import { eventsRead, parseEventAssertion } from './event-assertion.js';
import { usageOfEvents } from './session-usage.js';

const response = (turn: number, input: number | null) =>
  ({ turn, duration_ms: 1, ttft_ms: null, stop_reason: 'tool_use', stop_class: 'tool_use', tool_use_count: 1, input_tokens: input, output_tokens: 2, cache_read_tokens: 0, cache_write_tokens: 0 }) as never;

describe('a session\'s collecting sink', () => {
  it('keeps only the events its assertions read, yet tallies turns and tokens from all of them and forwards all', () => {
    const keep = new Set(['tool_success', ...eventsRead(parseEventAssertion('lost == 0').metric)]);
    const memory = new MemorySink();
    const collecting = new CollectingSink(memory, keep);
    const session = new RunEmitter(memory, 'r').session('s', 't', collecting);
    session.emit('model_response', response(1, 10));
    session.emit('tool_call', { turn: 1, tool: 'read', tool_use_id: 'a', requested_tool: null, batch: 0, concurrency_safe: true, source: 'builtin' } as never);
    session.emit('tool_success', { turn: 1, tool: 'read', tool_use_id: 'a' } as never);
    session.emit('model_response', response(2, 5));
    session.emit('model_request', { turn: 3 } as never);
    expect(collecting.collected.map((e) => e.event)).toEqual(['tool_call', 'tool_success']);
    expect(memory.events()).toHaveLength(5);
    const all = memory.events().map(({ v: _v, ts: _ts, seq: _seq, ...e }) => e);
    expect(collecting.usage).toEqual(usageOfEvents(all as never));
    expect(collecting.usage).toMatchObject({ turns: 3, input_tokens: 15, output_tokens: 4 });
  });

  it('keeps every event when not told which', () => {
    const collecting = new CollectingSink(new MemorySink());
    const session = new RunEmitter(collecting, 'r').session('s', 't');
    session.emit('model_response', response(1, null));
    session.emit('model_request', { turn: 2 } as never);
    expect(collecting.collected.map((e) => e.event)).toEqual(['model_response', 'model_request']);
    expect(collecting.usage).toMatchObject({ turns: 2, input_tokens: null });
  });
});
