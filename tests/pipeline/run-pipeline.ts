/** Test helper: one agent run through the real SDK + msw with the full tool pipeline configured. */
import type { z } from 'zod';
import { MemorySink, RunEmitter, type FaultlineEvent } from '../../src/events/index.js';
import type { DefenseName, PermissionMode } from '../../src/events/labels.js';
import { DEFAULT_HARNESS_CONFIG, type HarnessConfig } from '../../src/harness/config.js';
import type { HookSet } from '../../src/harness/hooks/types.js';
import { runAgent, type AgentResult } from '../../src/harness/loop/agent-loop.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import type { SnapshotMemory } from '../../src/harness/pipeline/snapshot-memory.js';
import type { SettledCall } from '../../src/harness/pipeline/services.js';
import type { PermissionRule } from '../../src/harness/permissions/types.js';
import type { ToolRegistry } from '../../src/harness/tools/registry.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { mockModel, type MockSessionHandle } from '../../src/mock/msw-hub.js';
import type { ModelScript } from '../../src/mock/script.js';
import type { ToolResultBlock } from '../../src/providers/types.js';
import { createWorkspace } from '../../src/suites/workspace.js';
import { removeAfterFile } from '../helpers/temp-dirs.js';

export type Wire = 'anthropic' | 'openai' | 'responses';

export interface PipelineRunOptions {
  wire?: Wire;
  /** Strict tool use on the wire (the strict schema subset plus `strict: true`). */
  strictTools?: boolean;
  files?: Record<string, string>;
  /** A registry (built before the workspace exists), or tool names for createRegistry. */
  registry?: ToolRegistry | ((workspace: string) => ToolRegistry);
  tools?: string[];
  mode?: PermissionMode;
  headless?: boolean;
  human?: 'approve' | 'refuse';
  rules?: PermissionRule[];
  hooks?: HookSet;
  disabledDefenses?: DefenseName[];
  fuseThreshold?: number;
  config?: Partial<HarnessConfig>;
  /** Runs after the workspace exists, before the model is called (symlinks, git dirs). */
  prepare?: (workspace: string) => void;
  /** Snapshots held in memory, as for a workspace deleted at the session's end (PipelineServices.snapshotMemory). */
  snapshotMemory?: SnapshotMemory;
}

export interface PipelineRun {
  result: AgentResult;
  events: readonly FaultlineEvent[];
  session: MockSessionHandle;
  workspace: string;
  settled: SettledCall[];
  of<N extends FaultlineEvent['event']>(name: N): Extract<FaultlineEvent, { event: N }>[];
  /** Every tool_result the model got, in order. */
  results(): ToolResultBlock[];
}

export async function runPipeline(script: z.input<typeof ModelScript>, options: PipelineRunOptions = {}): Promise<PipelineRun> {
  const { model, session } = mockModel(script, { wire: options.wire ?? 'anthropic', strictTools: options.strictTools });
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-test').session('s1', 'task-1');
  const workspace = removeAfterFile(createWorkspace(options.files));
  options.prepare?.(workspace);
  const settled: SettledCall[] = [];
  const disabled = options.disabledDefenses ?? [];
  const registry = typeof options.registry === 'function' ? options.registry(workspace) : (options.registry ?? createRegistry(options.tools));
  try {
    const result = await runAgent({
      model,
      registry,
      emitter,
      prompt: 'Do the task.',
      workspace,
      config: { ...DEFAULT_HARNESS_CONFIG, disabledDefenses: disabled, ...options.config },
      pipeline: {
        ...createSessionServices({
          workspace,
          mode: options.mode ?? 'acceptEdits',
          headless: options.headless ?? true,
          human: options.human,
          rules: options.rules,
          hooks: options.hooks,
          disabledDefenses: disabled,
          fuseThreshold: options.fuseThreshold,
          onSettled: (s) => settled.push(s),
        }),
        ...(options.snapshotMemory ? { snapshotMemory: options.snapshotMemory } : {}),
      },
    });
    const events = sink.events();
    const of = <N extends FaultlineEvent['event']>(name: N) => events.filter((e): e is Extract<FaultlineEvent, { event: N }> => e.event === name);
    const results = () => result.messages.flatMap((m) => (m.role === 'user' ? m.content.filter((b): b is ToolResultBlock => b.type === 'tool_result') : []));
    return { result, events, session, workspace, settled, of, results };
  } finally {
    session.close();
  }
}

/** A `bash` stand-in that records commands instead of running them: dangerous commands are tested without a shell. */
export function recordingBash(seen: string[]) {
  return async (input: { command: string }) => {
    seen.push(input.command);
    return { content: 'ran' };
  };
}
