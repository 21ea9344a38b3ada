/** A task's harness settings: what the suite says over the harness defaults, its test-only faults included. */
import { DEFAULT_HARNESS_CONFIG, DEFAULT_RETRY_CONFIG, type HarnessConfig } from '../harness/config.js';
import type { HarnessFaults } from '../harness/faults.js';
import type { LoadedTask } from './load-suite.js';
import { taskContextConfig } from './task-context.js';

/**
 * The task's harness settings over the defaults. Every key of DEFAULT_HARNESS_CONFIG is written out (in its order,
 * then the others) rather than spread and set again: the spread, then the same keys overwritten, cost 5-20 us a
 * task (2,000 tasks: 9-40 ms, against 0.7-1.7 ms). harness-config.test.ts checks no default is left out.
 */
export function harnessConfig(task: LoadedTask): HarnessConfig {
  return {
    maxTurns: task.max_turns ?? DEFAULT_HARNESS_CONFIG.maxTurns,
    tokenBudget: task.token_budget ?? null,
    maxTokens: task.max_tokens ?? DEFAULT_HARNESS_CONFIG.maxTokens,
    toolTimeoutMs: task.tool_timeout_ms ?? DEFAULT_HARNESS_CONFIG.toolTimeoutMs,
    disabledDefenses: task.disabled_defenses ?? [],
    retry: task.max_retries !== undefined ? { ...DEFAULT_RETRY_CONFIG, maxAttempts: task.max_retries + 1 } : { ...DEFAULT_RETRY_CONFIG },
    context: taskContextConfig(task),
    system: task.system,
    enabledDefenses: task.enabled_defenses ?? [],
    faults: harnessFaults(task),
    maxReminders: task.max_reminders,
    streamingTools: task.streaming_tools ?? DEFAULT_HARNESS_CONFIG.streamingTools,
  };
}

function harnessFaults(task: LoadedTask): HarnessFaults | undefined {
  const f = task.harness_faults;
  if (!f) return undefined;
  return {
    deadDefenses: f.dead_defenses,
    unwiredDefenses: f.unwired_defenses,
    claimedDefenses: f.claimed_defenses,
    countEvaluationsAsTriggers: f.count_evaluations_as_triggers,
    loseSettlement: f.lose_settlement,
    averageDurations: f.average_durations,
    secondDefinitionPath: f.second_definition_path,
    timestampInDescription: f.timestamp_in_description,
    compactionSplitsPairs: f.compaction_splits_pairs,
    compactionForgetsDeferred: f.compaction_forgets_deferred,
  };
}
