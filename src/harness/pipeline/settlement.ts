/**
 * The one settlement exit (docs/harness-rules.md#results-in-one-message): every path that ends a call — not
 * found, invalid input, cut off, executed, timed out, aborted — goes through
 * `settle`, which writes the tool_result and the telemetry together. It is
 * idempotent per tool_use_id, and `finish` answers any call no path settled,
 * so every tool_use gets exactly one tool_result even when a stage forgets.
 */
import type { SessionEmitter } from '../../events/emitter.js';
import type { FailureKind } from '../../events/labels.js';
import type { ToolResultBlock } from '../../providers/types.js';
import type { PipelineCall, StageFailure } from './call.js';
import type { SerializedSuccess } from './serialize.js';

export interface SettlementOptions {
  emitter: SessionEmitter;
  now: () => number;
  /** Tool label for events (`<unknown>` for names the registry does not know). */
  label: (name: string) => string;
  /** The user-facing side channel (docs/harness-rules.md#results-in-one-message onToolSettled): called once per settled call, whatever path settled it. */
  onSettled?: (call: PipelineCall, result: ToolResultBlock) => void;
  /** Filled per settled call (by tool_use_id) for the defenses that judge a turn's results. */
  ledger?: CallLedger;
  /** Test-only (harness/faults.ts): reproduce a lost settlement event or averaged durations. */
  faults?: SettlementFaults;
}

export interface SettlementFaults {
  /** Shared by the session: the first success writes no event, then `done` is set. */
  loseSettlement?: { done: boolean };
  averageDurations?: boolean;
}

export interface LedgerEntry {
  /** null: succeeded. */
  kind: FailureKind | null;
  /** The input the later stages saw (a hook's rewrite, validated), or the model's. */
  input: unknown;
  /** The tool's raw output (success) or the failure text sent to the model. */
  output: string;
}
export type CallLedger = Map<string, LedgerEntry>;

export class Settlement {
  // Keyed by call, not id: a model can repeat an id, and each call still needs its own answer.
  private readonly results = new Map<PipelineCall, ToolResultBlock>();
  private readonly kinds = new Map<PipelineCall, FailureKind | null>();
  /** Second settle attempts for one id: a pipeline bug, counted rather than written twice. */
  duplicateSettles = 0;
  /** tool_success events held for the averaged-durations fault, written at finish. */
  private held: Array<{ turn: number; tool: string; tool_use_id: string; duration_ms: number; execution_ms?: number; pipeline_ms?: number; output_bytes: number; raw_bytes: number; empty: boolean; truncated: boolean; spilled: boolean }> = [];

  constructor(private readonly options: SettlementOptions) {}

  isSettled(call: PipelineCall): boolean {
    return this.results.has(call);
  }

  /** `null` = succeeded, a kind = failed, `undefined` = not settled yet (the scheduler's cascade reads this). */
  failureKindOf(call: PipelineCall): FailureKind | null | undefined {
    return this.kinds.get(call);
  }

  succeed(call: PipelineCall, out: SerializedSuccess): void {
    if (!this.claim(call)) return;
    const event = {
      turn: call.turn,
      tool: this.options.label(call.block.name),
      tool_use_id: call.block.id,
      ...this.times(call),
      output_bytes: out.outputBytes,
      raw_bytes: out.rawBytes,
      empty: out.empty,
      truncated: out.truncated,
      spilled: out.spilled,
    };
    const faults = this.options.faults;
    if (faults?.loseSettlement && !faults.loseSettlement.done) faults.loseSettlement.done = true;
    else if (faults?.averageDurations) this.held.push(event);
    else this.options.emitter.emit('tool_success', event);
    this.record(call, { type: 'tool_result', tool_use_id: call.block.id, content: out.content, is_error: false });
    this.kinds.set(call, null);
    this.options.ledger?.set(call.block.id, { kind: null, input: inputOf(call), output: call.rawOutput ?? out.content });
  }

  fail(call: PipelineCall, failure: StageFailure): void {
    if (!this.claim(call)) return;
    this.options.emitter.emit('tool_failure', {
      turn: call.turn,
      tool: this.options.label(call.block.name),
      tool_use_id: call.block.id,
      ...this.times(call),
      failure_kind: failure.kind,
      error_code: failure.errorCode?.slice(0, 64) ?? null,
    });
    this.record(call, { type: 'tool_result', tool_use_id: call.block.id, content: failure.message, is_error: true });
    this.kinds.set(call, failure.kind);
    this.options.ledger?.set(call.block.id, { kind: failure.kind, input: inputOf(call), output: failure.message });
  }

  /** All results in call order; any call left unsettled is answered here as an exception. */
  finish(calls: readonly PipelineCall[]): ToolResultBlock[] {
    if (this.held.length > 0) {
      // The averaged-durations fault: batch time divided among its calls, the per-call truth lost (docs/harness-rules.md#per-call-durations).
      const average = Math.round((this.held.reduce((sum, e) => sum + e.duration_ms, 0) / this.held.length) * 1000) / 1000;
      for (const { execution_ms: _own, pipeline_ms: _rest, ...e } of this.held) this.options.emitter.emit('tool_success', { ...e, duration_ms: average });
      this.held = [];
    }
    for (const call of calls) {
      if (!this.results.has(call)) {
        this.fail(call, {
          kind: 'exception',
          errorCode: 'unsettled',
          message: `${call.block.name} produced no result because of a harness fault. Try again or use another approach.`,
        });
      }
    }
    // By push, not .map/.filter: one array kind whether or not V8 optimized this (the agent turn reads it).
    const out: ToolResultBlock[] = [];
    for (const call of calls) {
      const result = this.results.get(call);
      if (result !== undefined) out.push(result);
    }
    return out;
  }

  private record(call: PipelineCall, result: ToolResultBlock): void {
    this.results.set(call, result);
    try {
      this.options.onSettled?.(call, result);
    } catch {
      // The display side must never take the protocol side down with it.
    }
  }

  private claim(call: PipelineCall): boolean {
    if (this.results.has(call)) {
      this.duplicateSettles++;
      return false;
    }
    return true;
  }

  private elapsed(call: PipelineCall): number {
    return Math.max(0, Math.round((this.options.now() - call.startedAt) * 1000) / 1000);
  }

  /** duration_ms, and once the tool ran its own time and the pipeline's (the rest) apart. */
  private times(call: PipelineCall): { duration_ms: number; execution_ms?: number; pipeline_ms?: number } {
    const duration = this.elapsed(call);
    if (call.executionMs === undefined) return { duration_ms: duration };
    const execution = Math.min(call.executionMs, duration);
    return { duration_ms: duration, execution_ms: execution, pipeline_ms: Math.round((duration - execution) * 1000) / 1000 };
  }
}

function inputOf(call: PipelineCall): unknown {
  return call.input ?? call.candidateInput ?? call.block.input;
}
