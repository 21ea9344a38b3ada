import { describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../events/index.js';
import { defineDefense } from './define.js';
import { DefenseRuntime } from './runtime.js';
import type { SettledCallView, TurnView } from './types.js';

const usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
const call = (turn: number, output: string): SettledCallView => ({ turn, id: `c${turn}`, tool: 'read', input: { file_path: 'a' }, inputError: null, isError: false, failureKind: null, output });
const turn = (n: number, output = 'x'): TurnView => ({ turn: n, text: '', calls: [call(n, output)], usage });

function runtime(user: ReturnType<typeof defineDefense>[], options: { disabled?: string[]; silenced?: string[] } = {}) {
  const sink = new MemorySink();
  const rt = new DefenseRuntime({
    emitter: new RunEmitter(sink, 'r').session('s', 't'),
    context: { workspace: '/nonexistent', system: '', snapshots: [] },
    hasTokenBudget: false,
    user,
    ...options,
  });
  return { sink, rt };
}

const alertOnRead = defineDefense({ name: 'alert_on_read', guards: 'x', source: 'y', defaultOn: true, action: 'alert', session: () => ({ afterToolCall: (c) => (c.tool === 'read' ? { alert: 'read' } : null) }) });

describe('the defense runtime', () => {
  it('counts every hook call as an evaluation and a carried-out verdict as one trigger, with the point it was evaluated at', async () => {
    const { sink, rt } = runtime([alertOnRead]);
    await rt.afterTurn(turn(1), (t) => t);
    await rt.afterTurn(turn(2), (t) => t);
    rt.emitStats();
    expect(sink.events().filter((e) => e.event === 'defense_trigger' && e.defense === 'alert_on_read')).toHaveLength(2);
    expect(sink.events().find((e) => e.event === 'defense_stats' && e.defense === 'alert_on_read')).toMatchObject({ evaluated: 2, triggered: 2, evaluated_at: 'tool_result' });
  });

  it('evaluates a silenced defense but never lets it act (the dead trigger of docs/harness-rules.md#dead-defense)', async () => {
    const { sink, rt } = runtime([alertOnRead], { silenced: ['alert_on_read'] });
    await rt.afterTurn(turn(1), (t) => t);
    rt.emitStats();
    expect(sink.events().filter((e) => e.event === 'defense_trigger')).toEqual([]);
    expect(sink.events().find((e) => e.event === 'defense_stats' && e.defense === 'alert_on_read')).toMatchObject({ evaluated: 1, triggered: 0 });
  });

  it('does not arm a disabled defense at all', () => {
    const { rt } = runtime([alertOnRead], { disabled: ['alert_on_read'] });
    expect(rt.armed).not.toContain('alert_on_read');
  });

  it('records a hook that throws, and a block returned where only a note can be taken, as errors of the defense', async () => {
    const broken = defineDefense({ name: 'broken', guards: 'x', source: 'y', defaultOn: true, action: 'hint', session: () => ({ afterTurn: () => { throw new Error('boom'); } }) });
    const misplaced = defineDefense({ name: 'misplaced', guards: 'x', source: 'y', defaultOn: true, action: 'block', session: () => ({ afterToolCall: () => ({ block: 'no' }) }) });
    const { rt } = runtime([broken, misplaced]);
    await rt.afterTurn(turn(1), (t) => t);
    expect(rt.hookErrors).toEqual(['defense misplaced returned block from afterToolCall; only beforeToolCall can block or ask', 'defense broken threw in afterTurn: boom']);
  });

  it('rejects a declaration that is not a defense, naming the field', () => {
    expect(() => defineDefense({ name: 'Bad Name', guards: 'x', source: 'y', defaultOn: true, action: 'hint', session: () => ({}) })).toThrow(/defense "Bad Name" is not valid: name: a defense name is lower-case/);
    expect(() => defineDefense({ name: 'ok', guards: 'x', source: 'y', defaultOn: true, action: 'warn' as never, session: () => ({}) })).toThrow(/action: /);
  });
});
