import { describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../events/index.js';
import { defineDefense } from './define.js';
import { inOrder } from './in-order.js';
import { DefenseRuntime } from './runtime.js';
import type { SettledCallView, TurnView } from './types.js';

const usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
const call = (turn: number, id: string): SettledCallView => ({ turn, id, tool: 'read', input: { file_path: 'a' }, inputError: null, isError: false, failureKind: null, output: 'x' });

describe('hooks judged in order, waited for only when they return a promise', () => {
  it('runs plain steps at once and returns a plain value', () => {
    const seen: number[] = [];
    expect(inOrder(3, (i) => seen.push(i), () => 'done')).toBe('done');
    expect(seen).toEqual([0, 1, 2]);
  });

  it('waits for a promise before the next step, keeping the order', async () => {
    const seen: string[] = [];
    const result = inOrder(
      3,
      (i) => (i === 1 ? new Promise<void>((resolve) => setTimeout(() => (seen.push('slow'), resolve()), 5)) : seen.push(`step ${i}`)),
      () => seen.length,
    );
    expect(result).toBeInstanceOf(Promise);
    expect(seen).toEqual(['step 0']);
    expect(await result).toBe(3);
    expect(seen).toEqual(['step 0', 'slow', 'step 2']);
  });

  it('runs sync and async defenses per call, then per turn, in their order; a throw or a rejection is a hook error', async () => {
    const order: string[] = [];
    const sink = new MemorySink();
    const mk = (name: string, async: boolean, fail = false) =>
      defineDefense({
        name,
        guards: 'x',
        source: 'y',
        defaultOn: true,
        action: 'alert',
        session: () => ({
          afterToolCall: (c: SettledCallView) => {
            order.push(`${name} ${c.id}`);
            if (fail && !async) throw new Error('sync boom');
            return async ? (fail ? Promise.reject(new Error('async boom')) : Promise.resolve({ alert: c.id })) : null;
          },
          afterTurn: () => void order.push(`${name} turn`),
        }),
      });
    const rt = new DefenseRuntime({
      emitter: new RunEmitter(sink, 'r').session('s', 't'),
      context: { workspace: '/nonexistent', system: '', snapshots: [] },
      hasTokenBudget: false,
      user: [mk('first_sync', false), mk('second_async', true), mk('third_sync', false, true), mk('fourth_async', true, true)],
    });
    const view: TurnView = { turn: 1, text: '', calls: [call(1, 'a'), call(1, 'b')], usage };
    await rt.afterTurn(view, (t) => t);
    const names = ['first_sync', 'second_async', 'third_sync', 'fourth_async'];
    expect(order).toEqual([...names.map((n) => `${n} a`), ...names.map((n) => `${n} b`), ...names.map((n) => `${n} turn`)]);
    expect(sink.events().filter((e) => e.event === 'defense_trigger').map((e) => e.defense)).toEqual(['second_async', 'second_async']);
    expect(rt.hookErrors).toEqual([
      'defense third_sync threw in afterToolCall: sync boom',
      'defense fourth_async threw in afterToolCall: async boom',
      'defense third_sync threw in afterToolCall: sync boom',
      'defense fourth_async threw in afterToolCall: async boom',
    ]);
  });
});
