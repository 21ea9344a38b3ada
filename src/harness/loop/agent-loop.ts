/**
 * The agent loop (docs/harness-rules.md#agent-loop): ask the model, run the tools it asks for, send
 * every result back in one message, repeat — until a stop condition holds.
 * Termination set: max turns, token budget, abort, a stop from the turn
 * decision, a model error. Every turn is logged as events.
 */
import { toolLabel, type SessionEmitter, type SessionFields } from '../../events/emitter.js';
import type { TurnStop } from '../../events/labels.js';
import type { Message, Model, ModelResponse, RequestInfo, ToolResultBlock, ToolUseBlock, Usage } from '../../providers/types.js';
import type { HarnessConfig } from '../config.js';
import type { DefenseMeter } from '../defenses/meter.js';
import { DefenseRuntime } from '../defenses/runtime.js';
import type { CallLedger } from '../pipeline/settlement.js';
import { sessionSystemPrompt } from './system-prompt.js';
import { turnView } from './turn-view.js';
import { faultyDefinitions } from './faulty-definitions.js';
import { runTurnCalls, type TurnCallsOptions } from '../pipeline/run-turn-calls.js';
import { StreamingTurn } from '../schedule/streaming-turn.js';
import type { PipelineServices } from '../pipeline/services.js';
import type { Scheduler } from '../schedule/scheduler.js';
import type { ToolRegistryLike } from '../tools/registry-like.js';
import { callModel, type ModelCallDeps } from './model-call.js';
import { prefixHash } from './prefix-hash.js';
import { decideTurn } from './turn-decision.js';
import { attributeStop } from './stop-attribution.js';
import { loadShellParser } from '../permissions/shell-parser.js';
import { ContextManager, DEFAULT_CONTEXT_CONFIG } from '../context/context-manager.js';
import { DeferredAnnouncer } from '../context/deferred-announcer.js';

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
  const { model, registry, emitter, config } = options;
  // bash calls are analysed synchronously (permissions, concurrency safety): the grammar must be in memory first.
  await loadShellParser();
  const now = options.now ?? (() => performance.now());
  const signal = options.signal ?? new AbortController().signal;
  const started = now();
  const system = sessionSystemPrompt(config.system, options.pipeline?.permissions?.config, config.snapshots ?? []);
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
  const label = (name: string) => toolLabel(name, (n) => registry.get(n) !== undefined).tool;
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: options.prompt }] }];
  const usage: Usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  let tools = registry.definitions();
  let hash = prefixHash(system, tools);
  let finalText = '';
  let turn = 0;
  let explicit: TurnStop | null = null;
  let errorStop: TurnStop | null = null;
  let modelError: string | undefined;
  let budgetStop = false;
  const announcer = new DeferredAnnouncer(registry);
  // The context budget (seed's five required loop components: without a context manager a long session dies on the window).
  const contextConfig = config.context === undefined ? DEFAULT_CONTEXT_CONFIG : config.context;
  const context =
    contextConfig === null
      ? null
      : new ContextManager(contextConfig, emitter, registry, {
          splitPairs: config.faults?.compactionSplitsPairs === true,
          forgetDeferred: config.faults?.compactionForgetsDeferred === true,
        });

  // One options object for both paths, so the streaming path cannot miss a pipeline stage (docs/harness-rules.md#streaming-execution).
  const callOptions: TurnCallsOptions = {
    registry,
    emitter,
    workspace: options.workspace,
    signal,
    defaultTimeoutMs: config.toolTimeoutMs,
    scheduler: options.scheduler,
    pipeline: options.pipeline,
    defenses: defenses.meter,
    // Every key present (undefined when off): one object shape, so the per-turn copies below stay cheap.
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

  while (explicit === null && errorStop === null && !signal.aborted) {
    // The token budget, counted as a defense: evaluated once per turn boundary, fired where it stops the loop.
    if (defenses.meter.check('token_budget', turn, overBudget(usage, config), 'stop')) {
      budgetStop = true;
      break;
    }
    if (turn >= config.maxTurns) break;
    turn++;
    const ledger: CallLedger = new Map();
    const turnOptions: TurnCallsOptions = { ...callOptions, ledger };
    // tool_search loaded deferred tools: they are appended, so the earlier definitions stay a stable prefix (docs/harness-rules.md#stable-prefix).
    if (registry.definitions() !== tools) [tools, hash] = [registry.definitions(), prefixHash(system, registry.definitions())];
    // Test-only faults change what is sent (and so the prefix) without the registry knowing.
    const sent = config.faults ? faultyDefinitions(tools, registry, config.faults) : tools;
    if (sent !== tools) hash = prefixHash(system, sent);
    const request = { system, messages, tools: sent, maxTokens: config.maxTokens, signal };
    // The context budget measures the history as it will be sent (its last measure is of the final, compacted
    // one): that is this request's description, unless an announcement is added to the history after it.
    let measured: RequestInfo | null = null;
    const prepared = context?.prepare(turn, messages, (m) => (measured = model.describeRequest({ ...request, messages: [...m] })).requestBytes);
    if (prepared?.stop) {
      explicit = 'context_limit';
      break;
    }
    const announced = announceDeferred(announcer, messages, turn, emitter, context?.compactedLastTurn === true);
    const info = measured !== null && !announced ? measured : model.describeRequest(request);
    // What deferring saves on this request: the unloaded definitions as this wire would send them (messages left out: only the tools are measured).
    const unloaded = registry.unloadedDefinitions?.() ?? [];
    const deferredBytes = unloaded.length === 0 ? 0 : model.describeRequest({ ...request, messages: [], tools: unloaded }).toolsBytes;
    const requested: SessionFields<'model_request'> = {
      turn,
      provider: model.provider,
      model: model.model,
      stream: info.stream,
      messages_count: messages.length,
      tools_count: tools.length,
      tools_bytes: info.toolsBytes,
      request_bytes: info.requestBytes,
      prefix_hash: hash,
      deferred_tools_bytes: deferredBytes,
    };
    if (prepared) requested.prompt_tokens_estimate = prepared.estimate;
    emitter.emit('model_request', requested);
    // Retries, back-off and one model_error per failed attempt live in model-call.ts.
    const streaming = config.streamingTools ? new StreamingTurn(turn, turnOptions) : null;
    const hooks = streaming?.modelHooks;
    const call = await callModel({ model, request, turn, emitter, retry: config.retry, deps: options.modelCallDeps, now, onToolUse: hooks?.onToolUse, onRetry: hooks?.onRetry });
    if (!call.ok) {
      if (streaming) await streaming.discard();
      if (!call.aborted) {
        errorStop = 'model_error';
        modelError = `${call.error.kind}: ${call.error.message} (${call.attempts === 1 ? '1 attempt' : `${call.attempts} attempts`})`;
      }
      break;
    }
    const response = call.response;
    const toolUses = response.content.filter((b) => b.type === 'tool_use');
    addUsage(usage, response.usage);
    context?.recordUsage(response.usage);
    emitter.emit('model_response', {
      turn,
      duration_ms: round(now() - call.startedAt), // the successful attempt only; failed ones are model_error events
      ttft_ms: response.ttftMs,
      stop_reason: response.stopReason?.slice(0, 64) ?? null,
      stop_class: response.stopClass,
      tool_use_count: toolUses.length,
      ...response.usage,
    });
    messages.push({ role: 'assistant', content: response.content });
    finalText = response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');

    const defenseStop = await defenses.afterModelResponse({
      turn,
      text: finalText,
      stopClass: response.stopClass,
      toolCalls: toolUses.map((b) => ({ turn, id: b.id, tool: b.name, input: b.input, inputError: b.inputError?.reason ?? null })),
      usage: { ...usage },
    });
    if (defenseStop !== null) {
      if (streaming) await streaming.discard();
      explicit = 'defense_stop';
      if (toolUses.length > 0) messages.push({ role: 'user', content: unexecutedResults(toolUses, defenseStop) });
      break;
    }
    const decision = decideTurn(response.stopClass, toolUses.length, {
      fallthrough: defenses.acts('end_turn_fallthrough'),
      cutGuard: defenses.acts('cut_tool_call_guard'),
      failClosed: defenses.acts('stop_reason_fail_closed'),
    });
    recordDefenses(defenses.meter, turn, response, toolUses.length, decision);
    if (decision.kind === 'stop') {
      if (streaming) await streaming.discard();
      explicit = decision.stop;
      // Nothing ran and nothing more is sent, but the history must stay valid for whoever resumes it (docs/harness-rules.md#one-result-per-call).
      if (toolUses.length > 0) {
        const why = `the turn ended with stop reason class "${decision.stop}", so the harness did not act on it.`;
        messages.push({ role: 'user', content: unexecutedResults(toolUses, why) });
      }
      break;
    }
    if (decision.kind === 'continue') {
      if (streaming) await streaming.discard();
      continue;
    }
    // Streaming: the calls may already be running (or done); otherwise the batch path runs them.
    const streamed = streaming ? await streaming.conclude(toolUses, decision.kind === 'execute') : null;
    const results =
      streamed ??
      (await runTurnCalls(toolUses, turn, { ...turnOptions, rejectAsCut: decision.kind === 'reject_cut_calls', hookMemo: streaming ? streaming.batchHooks : undefined }));
    if (streaming) await streaming.finish();
    await defenses.afterTurn(turnView(turn, finalText, toolUses, results, ledger, usage), label);
    // Defense reminders go after the results, in the same user message (docs/harness-rules.md#results-in-one-message: one message per turn).
    messages.push({ role: 'user', content: [...results, ...defenses.takeReminders()] });
    if (defenses.stopRequested) {
      explicit = 'defense_stop';
      break;
    }
  }

  const stop = attributeStop({
    explicit,
    aborted: signal.aborted,
    maxTurns: explicit === null && turn >= config.maxTurns,
    tokenBudget: budgetStop,
    error: errorStop,
  });
  defenses.emitStats();
  return { stop, turns: turn, usage, finalText, messages, durationMs: round(now() - started), defenses, ...(modelError !== undefined ? { modelError } : {}) };
}

/**
 * The three loop guards look at every model response, so each response is one
 * evaluation of each (docs/harness-rules.md#judged-vs-triggered: evaluations and triggers counted apart); a
 * trigger is counted only when the guard changed what the loop did.
 */
function recordDefenses(
  defenses: DefenseMeter,
  turn: number,
  response: ModelResponse,
  pending: number,
  decision: ReturnType<typeof decideTurn>,
): void {
  const endLike = response.stopClass === 'end_turn' || response.stopClass === 'stop_sequence';
  const cut = response.stopClass === 'max_tokens' || response.stopClass === 'context_window_exceeded';
  const unhandled = response.stopClass === 'null' || response.stopClass === 'unknown';
  defenses.check('end_turn_fallthrough', turn, endLike && pending > 0 && decision.kind === 'execute', 'fallthrough');
  defenses.check('cut_tool_call_guard', turn, cut && decision.kind === 'reject_cut_calls', 'block');
  defenses.check('stop_reason_fail_closed', turn, unhandled && decision.kind === 'stop' && decision.failClosed, 'stop');
}

/** Results for tool calls the loop refused to run (fail-closed, refusal or defense stop): history only, no call events. */
function unexecutedResults(toolUses: readonly ToolUseBlock[], why: string): ToolResultBlock[] {
  return toolUses.map((block) => ({ type: 'tool_result', tool_use_id: block.id, is_error: true, content: `${block.name} was not run: ${why}` }));
}

/** Deferred tools that appeared since the last request go at the end of the message about to be sent. */
/** Adds the announcement of newly loaded deferred tools to the last user message; true when it added one. */
function announceDeferred(announcer: DeferredAnnouncer, messages: Message[], turn: number, emitter: SessionEmitter, full: boolean): boolean {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return false;
  const news = announcer.take(full);
  if (news === null) return false;
  last.content = [...last.content, news.block];
  emitter.emit('tools_announced', { turn, reason: full ? 'after_compaction' : 'new_deferred', tools_count: news.count });
  return true;
}

function overBudget(usage: Usage, config: HarnessConfig): boolean {
  return config.tokenBudget !== null && usage.input_tokens + usage.output_tokens >= config.tokenBudget;
}

function addUsage(total: Usage, add: Usage): void {
  total.input_tokens += add.input_tokens;
  total.output_tokens += add.output_tokens;
  total.cache_read_tokens += add.cache_read_tokens;
  total.cache_write_tokens += add.cache_write_tokens;
}

function round(ms: number): number {
  return Math.max(0, Math.round(ms * 1000) / 1000);
}
