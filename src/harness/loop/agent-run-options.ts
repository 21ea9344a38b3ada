/**
 * What the agent loop (agent-loop.ts) takes and gives back: in a file of their own so the loop's parts
 * (loop-state.ts, agent-turn.ts) name them without importing the loop itself.
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
