import { describe, expect, it } from 'vitest';
import { withContextFlags } from './task-context.js';
import { withModelFlags } from './task-model-flags.js';

describe('run flags over the tasks', () => {
  const tasks = () => [{ id: 'a', prompt: 'p', stream_idle_timeout_ms: 400, context_window: 1000 }, { id: 'b', prompt: 'q' }];

  it('copies no task when no flag is given (the tasks themselves, in a new array)', () => {
    const given = tasks();
    for (const out of [withModelFlags(given, {}), withContextFlags(given, {})]) {
      expect(out).not.toBe(given);
      expect(out).toHaveLength(2);
      out.forEach((task, i) => expect(task).toBe(given[i]));
    }
  });

  it('gives copies with the flag over every task, the tasks given unchanged and the keys in their order', () => {
    const given = tasks();
    const model = withModelFlags(given, { streamIdleTimeoutMs: 90 });
    const context = withContextFlags(given, { contextWindow: 5000 });
    expect(model.map((t) => t.stream_idle_timeout_ms)).toEqual([90, 90]);
    expect(context.map((t) => t.context_window)).toEqual([5000, 5000]);
    expect(Object.keys(model[0]!)).toEqual(['id', 'prompt', 'stream_idle_timeout_ms', 'context_window']);
    expect(Object.keys(model[1]!)).toEqual(['id', 'prompt', 'stream_idle_timeout_ms']);
    expect(given).toEqual(tasks());
    expect(model[0]).not.toBe(given[0]);
  });
});
