/** Harness settings with their defaults (docs/harness-rules.md#termination termination set). */
import type { FrozenSnapshot, HookDefense } from './defenses/types.js';
import type { HarnessFaults } from './faults.js';
import { DEFAULT_CONTEXT_CONFIG, type ContextConfig } from './context/context-manager.js';

export interface HarnessConfig {
  /** Hard cap on model turns (docs/harness-rules.md#termination). */
  maxTurns: number;
  /** Stop once input+output tokens across turns exceed this; null = no budget. */
  tokenBudget: number | null;
  /** max_tokens sent with every model request. */
  maxTokens: number;
  /** Default per-call tool timeout in ms (a tool may set its own). */
  toolTimeoutMs: number;
  system?: string;
  /** Defenses switched off, to show that a scenario fails without them. */
  disabledDefenses: readonly string[];
  /** Defenses that are off by default, switched on. */
  enabledDefenses?: readonly string[];
  /** The suite's own defenses (defenses/types.ts), armed like shipped ones. */
  userDefenses?: readonly HookDefense[];
  /** Test-only faults reproducing the green-but-broken forms (docs/harness-rules.md#green-but-broken) (faults.ts); never set in a normal run. */
  faults?: HarnessFaults;
  /** User-role reminders per session before a wrap-up is forced (default 3, reminders.ts). */
  maxReminders?: number;
  /** Facts frozen into the system prompt at session start (context/snapshots.ts); `system` already contains them. */
  snapshots?: readonly FrozenSnapshot[];
  /**
   * Streaming tool execution (docs/harness-rules.md#streaming-execution, schedule/streaming-turn.ts): with a
   * streaming adapter, concurrency-safe calls start while the model is still
   * streaming. Same outcomes on or off; default off.
   */
  streamingTools?: boolean;
  /** Model-call retries (see loop/model-call.ts); missing fields take DEFAULT_RETRY_CONFIG's. */
  retry?: Partial<RetryConfig>;
  /**
   * The context budget (context/context-manager.ts): window, compaction
   * threshold, turns kept. Absent: DEFAULT_CONTEXT_CONFIG; null: no context
   * manager (only the provider's context-window error stops a long session).
   */
  context?: ContextConfig | null;
}

/** Harness-side retries of a model call (SDK retries are off, docs/architecture.md#dependency-notes). */
export interface RetryConfig {
  /** Attempts per turn, the first included (1 = no retries). */
  maxAttempts: number;
  /** First back-off; doubles per attempt. */
  baseDelayMs: number;
  /** Cap on the computed back-off. */
  maxDelayMs: number;
  /** Share of the back-off taken off at random (0 = none, 0.25 = up to 25% less). */
  jitter: number;
  /** A server hint longer than this is ignored in favour of the computed back-off (as the SDKs do). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_CONFIG: RetryConfig = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, jitter: 0.25, maxRetryAfterMs: 60_000 };

export const DEFAULT_HARNESS_CONFIG: HarnessConfig = {
  maxTurns: 20,
  tokenBudget: null,
  maxTokens: 4096,
  toolTimeoutMs: 120_000,
  disabledDefenses: [],
  retry: DEFAULT_RETRY_CONFIG,
  context: DEFAULT_CONTEXT_CONFIG,
};
