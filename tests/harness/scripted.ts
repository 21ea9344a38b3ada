/** Test helper: one agent run against the scripted mock, through the real SDK client and msw. */
import type { z } from 'zod';
import { MemorySink, RunEmitter, type FaultlineEvent } from '../../src/events/index.js';
import { DEFAULT_HARNESS_CONFIG, type HarnessConfig } from '../../src/harness/config.js';
import { runAgent, type AgentResult } from '../../src/harness/loop/agent-loop.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { mockModel, type MockSessionHandle } from '../../src/mock/msw-hub.js';
import type { ModelScript } from '../../src/mock/script.js';
import { createWorkspace } from '../../src/suites/workspace.js';

export type Wire = 'anthropic' | 'openai';
export const WIRES: Wire[] = ['anthropic', 'openai'];

export interface ScriptedRun {
  result: AgentResult;
  events: readonly FaultlineEvent[];
  session: MockSessionHandle;
  workspace: string;
  of<N extends FaultlineEvent['event']>(name: N): Extract<FaultlineEvent, { event: N }>[];
}

export async function runScripted(
  script: z.input<typeof ModelScript>,
  options: { wire: Wire; tools?: string[]; files?: Record<string, string>; config?: Partial<HarnessConfig>; signal?: AbortSignal },
): Promise<ScriptedRun> {
  const { model, session } = mockModel(script, { wire: options.wire });
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-test').session('s1', 'task-1');
  const workspace = createWorkspace(options.files);
  try {
    const result = await runAgent({
      model,
      registry: createRegistry(options.tools),
      emitter,
      prompt: 'Do the task.',
      workspace,
      config: { ...DEFAULT_HARNESS_CONFIG, ...options.config },
      signal: options.signal,
    });
    const events = sink.events();
    const of = <N extends FaultlineEvent['event']>(name: N) =>
      events.filter((e): e is Extract<FaultlineEvent, { event: N }> => e.event === name);
    return { result, events, session, workspace, of };
  } finally {
    session.close();
  }
}

/** calls - successes - failures (seed §14.1): must be 0. */
export function lost(run: ScriptedRun): number {
  return run.of('tool_call').length - run.of('tool_success').length - run.of('tool_failure').length;
}

/** Every tool_use in every assistant message is answered by exactly one tool_result in the next message. */
export function everyToolUseAnswered(run: ScriptedRun): boolean {
  const { messages } = run.result;
  return messages.every((message, i) => {
    if (message.role !== 'assistant') return true;
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (ids.length === 0) return true;
    const next = messages[i + 1];
    if (!next) return true; // the loop ended on this turn: nothing more is sent
    const answered = next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
    return answered.length === ids.length && ids.every((id) => answered.filter((a) => a === id).length === 1);
  });
}
