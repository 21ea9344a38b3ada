/**
 * The state of one agent loop, built once per session. It is a class with every field set in the
 * constructor so all sessions share one object shape, and the setup lives outside the per-turn code:
 * V8 compiles (and, when a new shape shows up, recompiles) each of them on its own, instead of one
 * large function holding both.
 */
import { toolLabel, type SessionEmitter } from '../../events/emitter.js';
import type { TurnStop } from '../../events/labels.js';
import type { Message, Model, ToolDefinition, Usage } from '../../providers/types.js';
import type { HarnessConfig } from '../config.js';
import { DefenseRuntime } from '../defenses/runtime.js';
import type { TurnCallsOptions } from '../pipeline/run-turn-calls.js';
import type { ToolRegistryLike } from '../tools/registry-like.js';
import type { ModelCallDeps } from './model-call.js';
import { prefixHash } from './prefix-hash.js';
import { sessionSystemPrompt } from './system-prompt.js';
import { ContextManager, DEFAULT_CONTEXT_CONFIG } from '../context/context-manager.js';
import { DeferredAnnouncer } from '../context/deferred-announcer.js';
import type { AgentRunOptions } from './agent-run-options.js';

export class LoopState {
  readonly model: Model;
  readonly registry: ToolRegistryLike;
  readonly emitter: SessionEmitter;
  readonly config: HarnessConfig;
  readonly modelCallDeps: Partial<ModelCallDeps> | undefined;
  readonly now: () => number;
  readonly signal: AbortSignal;
  readonly started: number;
  readonly system: string | undefined;
  readonly defenses: DefenseRuntime;
  readonly label: (name: string) => string;
  readonly messages: Message[];
  readonly usage: Usage;
  tools: ToolDefinition[];
  hash: string;
  finalText = '';
  turn = 0;
  explicit: TurnStop | null = null;
  errorStop: TurnStop | null = null;
  modelError: string | undefined = undefined;
  budgetStop = false;
  readonly announcer: DeferredAnnouncer;
  readonly context: ContextManager | null;
  /** One options object for both paths, so the streaming path cannot miss a pipeline stage (docs/harness-rules.md#streaming-execution). */
  readonly callOptions: TurnCallsOptions;

  constructor(options: AgentRunOptions) {
    const { model, registry, emitter, config } = options;
    this.model = model;
    this.registry = registry;
    this.emitter = emitter;
    this.config = config;
    this.modelCallDeps = options.modelCallDeps;
    const now = options.now ?? (() => performance.now());
    this.now = now;
    const signal = options.signal ?? new AbortController().signal;
    this.signal = signal;
    this.started = now();
    const system = sessionSystemPrompt(config.system, options.pipeline?.permissions?.config, config.snapshots ?? []);
    this.system = system;
    const defenses = new DefenseRuntime({
      emitter,
      context: { workspace: options.workspace, system: system ?? '', snapshots: config.snapshots ?? [] },
      hasTokenBudget: config.tokenBudget !== null,
      disabled: config.disabledDefenses,
      enabled: config.enabledDefenses,
      user: config.userDefenses,
      silenced: config.faults?.deadDefenses,
      unwired: config.faults?.unwiredDefenses,
      evaluationsAsTriggers: config.faults?.countEvaluationsAsTriggers,
      maxReminders: config.maxReminders,
    });
    this.defenses = defenses;
    this.label = (name: string) => toolLabel(name, (n) => registry.get(n) !== undefined).tool;
    this.messages = [{ role: 'user', content: [{ type: 'text', text: options.prompt }] }];
    this.usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
    this.tools = registry.definitions();
    this.hash = prefixHash(system, this.tools);
    this.announcer = new DeferredAnnouncer(registry);
    // The context budget (seed's five required loop components: without a context manager a long session dies on the window).
    const contextConfig = config.context === undefined ? DEFAULT_CONTEXT_CONFIG : config.context;
    this.context =
      contextConfig === null
        ? null
        : new ContextManager(contextConfig, emitter, registry, {
            splitPairs: config.faults?.compactionSplitsPairs === true,
            forgetDeferred: config.faults?.compactionForgetsDeferred === true,
          });
    this.callOptions = {
      registry,
      emitter,
      workspace: options.workspace,
      signal,
      defaultTimeoutMs: config.toolTimeoutMs,
      scheduler: options.scheduler,
      pipeline: options.pipeline,
      defenses: defenses.meter,
      // Every key present (undefined when off): one object shape, so the per-turn copies stay cheap.
      guard: defenses.guardsCalls ? (view, name) => defenses.beforeToolCall(view, name) : undefined,
      settlementFaults:
        config.faults?.loseSettlement || config.faults?.averageDurations
          ? { ...(config.faults.loseSettlement ? { loseSettlement: { done: false } } : {}), averageDurations: config.faults.averageDurations === true }
          : undefined,
      now,
      ledger: undefined,
      rejectAsCut: false,
      hookMemo: undefined,
    };
  }
}
