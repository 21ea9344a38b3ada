/** Test helper: one agent run with any tools and scheduler, against the scripted mock through the real SDK and msw. */
import type { z } from 'zod';
import { MemorySink, RunEmitter, type FaultlineEvent } from '../../src/events/index.js';
import { DEFAULT_HARNESS_CONFIG, type HarnessConfig } from '../../src/harness/config.js';
import { runAgent, type AgentResult } from '../../src/harness/loop/agent-loop.js';
import type { Scheduler } from '../../src/harness/schedule/scheduler.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import type { Tool, ToolContext, ToolOutput } from '../../src/harness/tools/tool.js';
import { mockModel } from '../../src/mock/msw-hub.js';
import type { ModelScript } from '../../src/mock/script.js';
import type { ToolResultBlock } from '../../src/providers/types.js';
import { createWorkspace } from '../../src/suites/workspace.js';
import { removeAfterFile } from '../helpers/temp-dirs.js';

export interface Run {
  result: AgentResult;
  events: readonly FaultlineEvent[];
  workspace: string;
  of<N extends FaultlineEvent['event']>(name: N): Extract<FaultlineEvent, { event: N }>[];
  /** Every tool_result the model was sent, in order. */
  results(): ToolResultBlock[];
}

export async function run(
  script: z.input<typeof ModelScript>,
  options: { tools: Tool[]; files?: Record<string, string>; config?: Partial<HarnessConfig>; signal?: AbortSignal; scheduler?: Scheduler; wire?: 'anthropic' | 'openai' },
): Promise<Run> {
  const { model, session } = mockModel(script, { wire: options.wire ?? 'anthropic' });
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-test').session('s1', 'task-1');
  const workspace = removeAfterFile(createWorkspace(options.files));
  try {
    const result = await runAgent({
      model,
      registry: new ToolRegistry(options.tools),
      emitter,
      prompt: 'Do the task.',
      workspace,
      config: { ...DEFAULT_HARNESS_CONFIG, ...options.config },
      signal: options.signal,
      scheduler: options.scheduler,
    });
    const events = sink.events();
    const of = <N extends FaultlineEvent['event']>(name: N) => events.filter((e): e is Extract<FaultlineEvent, { event: N }> => e.event === name);
    const results = () =>
      result.messages.flatMap((m) => (m.role === 'user' ? m.content.filter((b): b is ToolResultBlock => b.type === 'tool_result') : []));
    return { result, events, workspace, of, results };
  } finally {
    session.close();
  }
}

export interface Interval {
  id: number;
  start: number;
  end: number;
}

/** Wraps a tool so every execution's start and end time is recorded (and optionally padded, so overlap is measurable). */
export function timed<I>(tool: Tool<I>, padMs = 0): { tool: Tool<I>; intervals: Interval[]; peak: () => number } {
  const intervals: Interval[] = [];
  let running = 0;
  let peak = 0;
  let next = 0;
  const wrapped: Tool<I> = {
    ...tool,
    async execute(input: I, context: ToolContext): Promise<ToolOutput> {
      const id = next++;
      const start = performance.now();
      peak = Math.max(peak, ++running);
      try {
        if (padMs > 0) await new Promise((resolve) => setTimeout(resolve, padMs));
        return await tool.execute(input, context);
      } finally {
        running--;
        intervals.push({ id, start, end: performance.now() });
      }
    },
  };
  return { tool: wrapped, intervals, peak: () => peak };
}

/** Time during which every interval was running at once (0 or less: they never all overlapped). */
export function commonOverlap(intervals: readonly Interval[]): number {
  return Math.min(...intervals.map((i) => i.end)) - Math.max(...intervals.map((i) => i.start));
}
