/**
 * Runs all tool_use blocks of one assistant turn through the pipeline stages
 * (run-call.ts: lookup -> PreToolUse hook -> permission -> validate ->
 * [schedule, here] -> snapshot -> execute -> truncate/spill -> PostToolUse
 * hook -> serialize -> telemetry) and
 * returns exactly one tool_result per tool_use, in call order, for the single
 * user message that follows the turn (docs/harness-rules.md#one-result-per-call, docs/harness-rules.md#results-in-one-message).
 */
import { modelInput } from './model-input.js';
import type { AttemptHookMemo } from './pre-hook-memo.js';
import { toolLabel } from '../../events/emitter.js';
import type { SessionEmitter } from '../../events/emitter.js';
import type { ToolResultBlock, ToolUseBlock } from '../../providers/types.js';
import type { Tool } from '../tools/tool.js';
import { cascadeSkippedFailure } from '../schedule/bash-cascade.js';
import { BatchPlanner } from '../schedule/batch-planner.js';
import { mapCalls } from '../schedule/call-source.js';
import { isParsedConcurrencySafe, type InputParse } from '../schedule/concurrency-safety.js';
import { createScheduler, type CallOutcome, type Scheduler } from '../schedule/scheduler.js';
import type { DefenseCounter } from '../defenses/meter.js';
import { BatchPathMemo } from './batch-path-memo.js';
import type { PipelineCall } from './call.js';
import { settledCall } from './display-side.js';
import { runCallStages, type CallContext } from './run-call.js';
import { SessionStops } from './session-stops.js';
import type { PipelineServices } from './services.js';
import type { ToolLookup } from './lookup.js';
import { executionFailure } from './serialize.js';
import { Settlement, type CallLedger, type SettlementFaults } from './settlement.js';
import type { CallGuard } from './defense-stage.js';

export interface TurnCallsOptions {
  registry: ToolLookup;
  emitter: SessionEmitter;
  workspace: string;
  signal: AbortSignal;
  defaultTimeoutMs: number;
  scheduler?: Scheduler;
  /** Performance clock in ms. */
  now?: () => number;
  /** The calls were cut off (max_tokens etc.): answer each with an error, run none. */
  rejectAsCut?: boolean;
  /** Hooks, permissions, spill/snapshot dirs, display (session-scoped); absent parts pass calls through. */
  pipeline?: PipelineServices;
  /** The session's defense meter (permission and result defenses count here). */
  defenses?: DefenseCounter;
  /** The hook defenses' beforeToolCall (defenses/runtime.ts). */
  guard?: CallGuard;
  /** Filled with each settled call's kind, input and output (for the defenses that judge the turn). */
  ledger?: CallLedger;
  /** Test-only (harness/faults.ts). */
  settlementFaults?: SettlementFaults;
  /** Streaming: PreToolUse verdicts of this turn's dropped attempts, so a hook runs once per call (pre-hook-memo.ts). */
  hookMemo?: AttemptHookMemo;
}

/** `blocks` is an array (batch mode) or a stream of complete tool_use blocks (streaming mode, docs/harness-rules.md#streaming-execution). */
export async function runTurnCalls(blocks: readonly ToolUseBlock[] | AsyncIterable<ToolUseBlock>, turn: number, options: TurnCallsOptions): Promise<ToolResultBlock[]> {
  const now = options.now ?? (() => performance.now());
  const isKnown = (name: string) => options.registry.get(name) !== undefined;
  const label = (name: string) => toolLabel(name, isKnown).tool;
  const onSettled = options.pipeline?.onSettled;
  const settlement = new Settlement({
    emitter: options.emitter,
    now,
    label,
    ...(options.ledger ? { ledger: options.ledger } : {}),
    ...(options.settlementFaults ? { faults: options.settlementFaults } : {}),
    ...(onSettled ? { onSettled: (call: PipelineCall, result: ToolResultBlock) => onSettled(settledCall(call, result, label, options.pipeline?.displayModes)) } : {}),
  });
  const scheduler = options.scheduler ?? createScheduler();

  // Each call is planned (batch, concurrency_safe) and announced as it arrives; an array arrives all at once.
  const context: CallContext = {
    registry: options.registry,
    emitter: options.emitter,
    workspace: options.workspace,
    signal: options.signal,
    defaultTimeoutMs: options.defaultTimeoutMs,
    now,
    settlement,
    services: options.pipeline ?? {},
    defenses: options.defenses,
    guard: options.guard,
    label,
    pathMemo: new BatchPathMemo(),
    sessionStops: new SessionStops(options.signal),
    ...(options.hookMemo ? { hookMemo: options.hookMemo } : {}),
  };
  const planner = new BatchPlanner();
  const calls: PipelineCall[] = [];
  const admit = (block: ToolUseBlock): PipelineCall => {
    const call: PipelineCall = { block, turn, batch: 0, startedAt: now() };
    const tool = options.registry.get(block.name);
    if (tool === undefined) planner.assign(call, false);
    else {
      const input = modelInput(tool, block);
      const parsed = parseOrNull(tool, input);
      call.admitted = { tool, input, parsed };
      planner.assign(call, parsed !== null && isParsedConcurrencySafe(tool, parsed));
    }
    emitToolCall(call, options, isKnown);
    calls.push(call);
    return call;
  };

  const runOne = async (call: PipelineCall, cascade: AbortSignal): Promise<void> => {
    call.startedAt = now();
    if (options.rejectAsCut) {
      settlement.fail(call, {
        kind: 'invalid_input',
        errorCode: 'cut_off',
        message: `This ${call.block.name} call was cut off by the output token limit before its arguments were complete, so it was not run. Call it again with shorter input, or split the work into smaller steps.`,
      });
      return;
    }
    if (options.signal.aborted) {
      settlement.fail(call, { kind: 'aborted', errorCode: 'not_started', message: `${call.block.name} was not run because the task was aborted.` });
      return;
    }
    if (cascade.aborted) return settlement.fail(call, cascadeSkippedFailure(call.block.name));
    await runCallStages(call, cascade, context);
  };

  // A stage that throws is a harness bug: that call is answered as an exception and the others still run.
  const guarded = async (call: PipelineCall, cascade: AbortSignal): Promise<CallOutcome> => {
    try {
      await runOne(call, cascade);
    } catch (error) {
      settlement.fail(call, executionFailure(call.tool ?? placeholderTool(call), { kind: 'exception', error }));
    }
    // The scheduler needs the kind (a failing bash cancels later bash); settlement is where it is known.
    const kind = settlement.failureKindOf(call);
    return { failureKind: kind === undefined ? 'exception' : kind };
  };
  try {
    await scheduler.run(mapCalls(blocks, admit), guarded);
  } finally {
    context.sessionStops?.close();
  }
  return settlement.finish(calls);
}

/** The schema's parse, or null when it threw (a throwing check is unsafe, and the stages parse again to report it). */
function parseOrNull(tool: Tool, input: unknown): InputParse | null {
  try {
    return tool.inputSchema.safeParse(input);
  } catch {
    return null;
  }
}

function placeholderTool(call: PipelineCall): Tool {
  return { name: call.block.name } as Tool;
}

function emitToolCall(call: PipelineCall, options: TurnCallsOptions, isKnown: (name: string) => boolean): void {
  const { tool, requested_tool } = toolLabel(call.block.name, isKnown);
  options.emitter.emit('tool_call', {
    turn: call.turn,
    tool,
    tool_use_id: call.block.id,
    requested_tool,
    batch: call.batch,
    concurrency_safe: call.concurrencySafe === true,
    // An MCP tool is `mcp` whether deferred or not (they are deferred by default, and the source is the point).
    source: call.block.name.startsWith('mcp__') ? 'mcp' : options.registry.isDeferred?.(call.block.name) ? 'deferred' : 'builtin',
  });
}
