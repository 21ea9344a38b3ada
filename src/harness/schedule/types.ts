/**
 * The scheduling seam's types (docs/harness-rules.md#concurrency, docs/harness-rules.md#streaming-execution). The scheduler only decides WHEN a
 * call starts; everything a call goes through (hooks, permission, validation,
 * execution, settlement) stays in the per-call pipeline passed in as `runOne`
 * (docs/harness-rules.md#streaming-execution), so batch and streaming scheduling cannot drift apart.
 */
import type { FailureKind } from '../../events/labels.js';
import type { PipelineCall } from '../pipeline/call.js';

/**
 * A change to session context a tool asks for (e.g. a new working directory).
 * Applied by the scheduler in call order, never in completion order (docs/harness-rules.md#context-modifier-order).
 */
export type ContextModifier = () => void;

/** What the pipeline reports back about one settled call. */
export interface CallOutcome {
  /** `null` when the call succeeded. */
  failureKind: FailureKind | null;
  contextModifier?: ContextModifier;
}

/**
 * Runs one call through the whole pipeline and settles it. `cancel` is this
 * call's cascade signal: aborted only when an earlier bash call of the same
 * turn failed (never by user abort or timeout, which the pipeline gets from
 * the session signal and its own timer), so the three cancel sources stay
 * distinguishable (docs/harness-rules.md#cancel-sources). It must not throw; it reports a failure instead.
 */
export type RunOne = (call: PipelineCall, cancel: AbortSignal) => Promise<CallOutcome>;

/** Calls in arrival order: an array (batch mode) or an async stream (streaming mode, docs/harness-rules.md#streaming-execution). */
export type CallSource = readonly PipelineCall[] | AsyncIterable<PipelineCall>;

export interface Scheduler {
  /**
   * Run every call of the source through `runOne`; resolves when all have
   * settled. Calls must already carry `batch` and `concurrencySafe` (BatchPlanner).
   */
  run(source: CallSource, runOne: RunOne): Promise<void>;
}
