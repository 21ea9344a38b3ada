/**
 * Test-only faults switched into faultline's own harness. Each reproduces a
 * "green but broken" form of docs/harness-rules.md#green-but-broken — a bug that passes every test and
 * shows only in the numbers — so the fault catalog (suites/faults/
 * green-but-broken/) can show that the report catches it. None is reachable
 * except through a suite's `harness_faults:`; a normal run never sets them.
 */
export interface HarnessFaults {
  /** Armed and evaluated, never acting: a trigger that was deleted (F1). */
  readonly deadDefenses?: readonly string[];
  /** Armed, but their hooks are never called: wiring that was never connected (F1). */
  readonly unwiredDefenses?: readonly string[];
  /** Listed as armed with no implementation behind the name: the label set outgrew the code (F1). */
  readonly claimedDefenses?: readonly string[];
  /** defense_stats counts every evaluation as a trigger: the counter sits in the predicate (F3). */
  readonly countEvaluationsAsTriggers?: readonly string[];
  /** The session's first successful call writes no tool_success: a return path that forgot its event (docs/harness-rules.md#tool-funnel). */
  readonly loseSettlement?: boolean;
  /** Each turn's call durations are replaced by their average: batch time ÷ calls (docs/harness-rules.md#per-call-durations). */
  readonly averageDurations?: boolean;
  /** Tool definitions built by a second, hand-written path that drops the usage guide (F11). */
  readonly secondDefinitionPath?: boolean;
  /** The first tool's description carries the time of each request, busting the prompt cache (docs/harness-rules.md#stable-prefix). */
  readonly timestampInDescription?: boolean;
  /** Context compaction drops single old messages, splitting a tool_use from its tool_result (the API refuses the request). */
  readonly compactionSplitsPairs?: boolean;
  /** Context compaction does not announce the loaded deferred tools again (the model loses sight of them). */
  readonly compactionForgetsDeferred?: boolean;
}
