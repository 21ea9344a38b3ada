import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemorySink, RunEmitter } from '../../events/index.js';
import type { ToolUseBlock } from '../../providers/types.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import { runTurnCalls } from './run-turn-calls.js';

describe('session abort listener per turn', () => {
  it('puts one listener on the session signal while a turn runs, whatever the number of calls, and removes it after', async () => {
    const session = new AbortController();
    const counts: number[] = [];
    const probe: Tool<Record<string, never>> = {
      name: 'probe',
      description: 'Counts abort listeners on the session signal.',
      inputSchema: z.strictObject({}),
      readOnly: true,
      isConcurrencySafe: () => true,
      async execute() {
        await new Promise((resolve) => setTimeout(resolve, 5));
        counts.push(getEventListeners(session.signal, 'abort').length);
        return { content: 'ok' };
      },
    };
    const emitter = new RunEmitter(new MemorySink(), 'run').session('s', 't');
    const blocks: ToolUseBlock[] = Array.from({ length: 12 }, (_, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'probe', input: {} }));
    const results = await runTurnCalls(blocks, 1, { registry: new ToolRegistry([probe]), emitter, workspace: '/tmp', signal: session.signal, defaultTimeoutMs: 5_000 });
    expect(results.every((r) => !r.is_error)).toBe(true);
    expect(counts).toEqual(Array.from({ length: 12 }, () => 1));
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });
});
