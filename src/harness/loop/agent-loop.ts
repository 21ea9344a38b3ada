/**
 * The agent loop (docs/harness-rules.md#agent-loop): ask the model, run the tools it asks for, send
 * every result back in one message, repeat — until a stop condition holds.
 * Termination set: max turns, token budget, abort, a stop from the turn
 * decision, a model error. Every turn is logged as events.
 */
import type { SessionEmitter } from '../../events/emitter.js';
import type { TurnStop } from '../../events/labels.js';
import type { Message, Model, Usage } from '../../providers/types.js';
import type { HarnessConfig } from '../config.js';
import type { DefenseRuntime } from '../defenses/runtime.js';
import type { PipelineServices } from '../pipeline/services.js';
import type { Scheduler } from '../schedule/scheduler.js';
import type { ToolRegistryLike } from '../tools/registry-like.js';
import type { ModelCallDeps } from './model-call.js';
import { attributeStop } from './stop-attribution.js';
import { loadShellParser } from '../permissions/shell-parser.js';
import { LoopState } from './loop-state.js';
import { round, runTurns } from './agent-turn.js';

export interface AgentRunOptions {
  model: Model;
  registry: ToolRegistryLike;
  emitter: SessionEmitter;
  prompt: string;
  workspace: string;
  config: HarnessConfig;
  signal?: AbortSignal;
  scheduler?: Scheduler;
  /** Hooks, permissions, spill/snapshot dirs and display of the tool pipeline (session-scoped). */
  pipeline?: PipelineServices;
  /** Performance clock in ms (injectable for tests). */
  now?: () => number;
  /** Back-off sleep and jitter source of model-call retries (injectable for tests). */
  modelCallDeps?: Partial<ModelCallDeps>;
}

export interface AgentResult {
  stop: TurnStop;
  turns: number;
  usage: Usage;
  /** Text of the last assistant message. */
  finalText: string;
  messages: Message[];
  durationMs: number;
  defenses: DefenseRuntime;
  /** Why the last model call failed when the loop stopped on it (`model_error`): its kind, message and attempts. */
  modelError?: string;
}

export async function runAgent(options: AgentRunOptions): Promise<AgentResult> {
  // bash calls are analysed synchronously (permissions, concurrency safety): the grammar must be in memory first.
  await loadShellParser();
  // Setup and the turns are separate functions: each is optimized (and deoptimized) on its own.
  const s = new LoopState(options);
  await runTurns(s);
  const { explicit, turn } = s;
  const stop = attributeStop({
    explicit,
    aborted: s.signal.aborted,
    maxTurns: explicit === null && turn >= s.config.maxTurns,
    tokenBudget: s.budgetStop,
    error: s.errorStop,
  });
  s.defenses.emitStats();
  const { modelError } = s;
  return {
    stop,
    turns: turn,
    usage: s.usage,
    finalText: s.finalText,
    messages: s.messages,
    durationMs: round(s.now() - s.started),
    defenses: s.defenses,
    ...(modelError !== undefined ? { modelError } : {}),
  };
}
