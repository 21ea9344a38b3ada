/** Test helper shared by every mount: one agent run with a given model, its events collected in memory. */
import { MemorySink, RunEmitter, type FaultlineEvent } from '../../src/events/index.js';
import { DEFAULT_HARNESS_CONFIG, type HarnessConfig } from '../../src/harness/config.js';
import { runAgent, type AgentResult } from '../../src/harness/loop/agent-loop.js';
import type { ModelCallDeps } from '../../src/harness/loop/model-call.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import type { Model } from '../../src/providers/types.js';
import { createWorkspace } from '../../src/suites/workspace.js';
import { removeAfterFile } from '../helpers/temp-dirs.js';

export type Wire = 'anthropic' | 'openai' | 'responses';
export const WIRES: Wire[] = ['anthropic', 'openai', 'responses'];

export interface AgentRunOptions {
  tools?: string[];
  files?: Record<string, string>;
  config?: Partial<HarnessConfig>;
  signal?: AbortSignal;
  deps?: Partial<ModelCallDeps>;
}

export interface AgentRun {
  result: AgentResult;
  events: readonly FaultlineEvent[];
  workspace: string;
  of<N extends FaultlineEvent['event']>(name: N): Extract<FaultlineEvent, { event: N }>[];
}

export async function runWithModel(model: Model, options: AgentRunOptions): Promise<AgentRun> {
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-test').session('s1', 'task-1');
  const workspace = removeAfterFile(createWorkspace(options.files));
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
  const of = <N extends FaultlineEvent['event']>(name: N) =>
    events.filter((e): e is Extract<FaultlineEvent, { event: N }> => e.event === name);
  return { result, events, workspace, of };
}

/** calls - successes - failures (docs/harness-rules.md#tool-funnel): must be 0. */
export function lost(run: Pick<AgentRun, 'of'>): number {
  return run.of('tool_call').length - run.of('tool_success').length - run.of('tool_failure').length;
}
