/**
 * A call is scheduled as concurrency-safe on the model's input; a PreToolUse
 * hook may then rewrite it into one that is not (`ls` into `rm`). Such a call
 * must not run beside the others of its batch: it waits until it can run
 * alone, and nothing new starts while it runs.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import type { HookSet } from '../../src/harness/hooks/types.js';
import { runTurnCalls } from '../../src/harness/pipeline/run-turn-calls.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import { createScheduler } from '../../src/harness/schedule/scheduler.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import type { ToolUseBlock } from '../../src/providers/types.js';
import { tempDir } from '../helpers/temp-dirs.js';

const probeInput = z.strictObject({ mode: z.enum(['read', 'write']), ms: z.number() });

/** Safe only in read mode; records how many probes were executing when each one started and ended. */
function probeTool(log: { mode: string; overlapAtStart: number; overlapAtEnd: number }[]): Tool<z.infer<typeof probeInput>> {
  let executing = 0;
  return {
    name: 'probe',
    description: 'Test probe.',
    inputSchema: probeInput,
    readOnly: false,
    isConcurrencySafe: (input) => input.mode === 'read',
    async execute(input) {
      executing++;
      const overlapAtStart = executing - 1;
      await new Promise((resolve) => setTimeout(resolve, input.ms));
      const overlapAtEnd = executing - 1;
      executing--;
      log.push({ mode: input.mode, overlapAtStart, overlapAtEnd });
      return { content: input.mode };
    },
  };
}

async function turnWith(hooks: HookSet, calls: { mode: 'read' | 'write'; ms: number }[]) {
  const log: { mode: string; overlapAtStart: number; overlapAtEnd: number }[] = [];
  const ws = tempDir('faultline-rewrite-');
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-rewrite').session('s1', 'task-1');
  const pipeline = createSessionServices({ workspace: ws, mode: 'default', headless: true, hooks, rules: [{ id: 'probe', effect: 'allow', tool: 'probe' }] });
  const blocks: ToolUseBlock[] = calls.map((input, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'probe', input }));
  const results = await runTurnCalls(blocks, 1, {
    registry: new ToolRegistry([probeTool(log)]),
    emitter,
    workspace: ws,
    signal: new AbortController().signal,
    defaultTimeoutMs: 10_000,
    pipeline,
    scheduler: createScheduler({ maxConcurrency: 10 }),
  });
  return { log, results, events: sink.events() };
}

/** Rewrites the second call (toolu_1) from read to write, keeping its duration. */
const rewriteSecond: HookSet = {
  preToolUse: (event) => (event.toolUseId === 'toolu_1' ? { updatedInput: { ...(event.input as object), mode: 'write' } } : undefined),
};

describe('a hook that rewrites a concurrency-safe call into an unsafe one', () => {
  it('makes that call run alone: the batch was planned as one, yet the rewritten call overlaps nothing', async () => {
    const { log, events } = await turnWith(rewriteSecond, [
      { mode: 'read', ms: 60 },
      { mode: 'read', ms: 20 },
      { mode: 'read', ms: 60 },
    ]);
    // Planned on the model's input: all three in one concurrent batch.
    expect(events.filter((e) => e.event === 'tool_call').map((e) => (e.event === 'tool_call' ? [e.batch, e.concurrency_safe] : null))).toEqual([
      [0, true],
      [0, true],
      [0, true],
    ]);
    expect(log).toHaveLength(3);
    const write = log.find((l) => l.mode === 'write');
    expect(write).toMatchObject({ overlapAtStart: 0, overlapAtEnd: 0 });
    // The reads did run together (the test would not show anything if nothing overlapped at all).
    expect(Math.max(...log.filter((l) => l.mode === 'read').map((l) => l.overlapAtStart + l.overlapAtEnd))).toBeGreaterThan(0);
  });

  it('two rewritten calls of one batch each run alone, one after the other (no deadlock)', async () => {
    const rewriteAll: HookSet = { preToolUse: (event) => ({ updatedInput: { ...(event.input as object), mode: 'write' } }) };
    const { log, results } = await turnWith(rewriteAll, [
      { mode: 'read', ms: 20 },
      { mode: 'read', ms: 20 },
    ]);
    expect(results).toHaveLength(2);
    expect(log.map((l) => [l.mode, l.overlapAtStart, l.overlapAtEnd])).toEqual([
      ['write', 0, 0],
      ['write', 0, 0],
    ]);
  });

  it('leaves a rewrite that stays safe in the batch', async () => {
    const stillRead: HookSet = { preToolUse: (event) => (event.toolUseId === 'toolu_1' ? { updatedInput: { ...(event.input as object), ms: 40 } } : undefined) };
    const { log } = await turnWith(stillRead, [
      { mode: 'read', ms: 40 },
      { mode: 'read', ms: 20 },
    ]);
    expect(log).toHaveLength(2);
    expect(log.every((l) => l.overlapAtStart + l.overlapAtEnd > 0)).toBe(true);
  });
});
