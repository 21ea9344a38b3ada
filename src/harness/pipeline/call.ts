/** The state one tool call carries through the pipeline stages. */
import type { ToolUseBlock } from '../../providers/types.js';
import type { FailureKind } from '../../events/labels.js';
import type { Tool } from '../tools/tool.js';
import type { InputParse } from '../schedule/concurrency-safety.js';

export interface PipelineCall {
  block: ToolUseBlock;
  turn: number;
  batch: number;
  /** Performance-clock start; every call's duration is its own (docs/harness-rules.md#per-call-durations). */
  startedAt: number;
  /** The tool body's own time (the execute stage), once it ran: logged apart from the pipeline's time. */
  executionMs?: number;
  /** Greedy-partition verdict (schedule/batch-planner.ts); unset means unsafe. */
  concurrencySafe?: boolean;
  tool?: Tool;
  /** The input the later stages see: the model's, or a PreToolUse hook's rewrite of it. */
  candidateInput?: unknown;
  /** The validated input the tool runs with. */
  input?: unknown;
  /** A PreToolUse hook really changed the input (deep comparison): the result gets a notice (docs/harness-rules.md#hooks). */
  inputModifiedByHook?: boolean;
  /** The tool's own output before truncation, for the defenses that judge results (defenses/types.ts). */
  rawOutput?: string;
  /**
   * What admission read for the scheduler: the model's input for `tool` and its schema's parse (absent when the
   * parse threw). The stages take them rather than read and parse the same input again; valid for `tool` only.
   */
  admitted?: { tool: Tool; input: unknown; parsed: InputParse | null };
  /** Set by the pool when the call starts: wait until no other call of the turn is running (schedule/call-pool.ts). */
  runAlone?: () => Promise<void>;
}

/** A stage's verdict when a call cannot go on: the text is written for the model (what to do next). */
export interface StageFailure {
  kind: FailureKind;
  errorCode: string | null;
  message: string;
}

export type StageResult<T> = { ok: true; value: T } | { ok: false; failure: StageFailure };
