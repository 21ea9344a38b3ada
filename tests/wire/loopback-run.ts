/** Test helper: one agent run against the scripted mock on the loopback server, through the real SDK client. */
import type { z } from 'zod';
import { MemorySink, RunEmitter, type FaultlineEvent } from '../../src/events/index.js';
import { DEFAULT_HARNESS_CONFIG, type HarnessConfig } from '../../src/harness/config.js';
import { runAgent, type AgentResult } from '../../src/harness/loop/agent-loop.js';
import type { ModelCallDeps } from '../../src/harness/loop/model-call.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { loopbackModel } from '../../src/mock/loopback-model.js';
import type { LoopbackServer, LoopbackSessionHandle } from '../../src/mock/loopback-server.js';
import type { ModelScript } from '../../src/mock/script.js';
import { createWorkspace } from '../../src/suites/workspace.js';

export type Wire = 'anthropic' | 'openai';
export const WIRES: Wire[] = ['anthropic', 'openai'];

export interface LoopbackRun {
  result: AgentResult;
  events: readonly FaultlineEvent[];
  session: LoopbackSessionHandle;
  workspace: string;
  of<N extends FaultlineEvent['event']>(name: N): Extract<FaultlineEvent, { event: N }>[];
}

export interface LoopbackRunOptions {
  server: LoopbackServer;
  wire: Wire;
  stream: boolean;
  tools?: string[];
  files?: Record<string, string>;
  config?: Partial<HarnessConfig>;
  signal?: AbortSignal;
  deps?: Partial<ModelCallDeps>;
}

export async function runOnLoopback(script: z.input<typeof ModelScript>, options: LoopbackRunOptions): Promise<LoopbackRun> {
  const { model, session } = await loopbackModel(script, { wire: options.wire, stream: options.stream, server: options.server });
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-wire').session('s1', 'task-1');
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
      modelCallDeps: options.deps,
    });
    const events = sink.events();
    const of = <N extends FaultlineEvent['event']>(name: N) => events.filter((e): e is Extract<FaultlineEvent, { event: N }> => e.event === name);
    return { result, events, session, workspace, of };
  } finally {
    session.close();
  }
}

/** calls - successes - failures (seed §14.1): must be 0. */
export function lost(run: LoopbackRun): number {
  return run.of('tool_call').length - run.of('tool_success').length - run.of('tool_failure').length;
}
