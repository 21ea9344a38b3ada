/**
 * The loop's context budget. Before every model request it estimates the
 * prompt (estimate.ts); over the threshold it compacts the history
 * (compact.ts) — a session near the window must shrink first, not die on the
 * provider's context-window error. When compaction cannot bring the prompt
 * under the window, the loop stops with its own reason (`context_limit`)
 * instead of sending a request that is bound to fail.
 *
 * After a compaction, the deferred tools loaded earlier are announced again:
 * the tool_search results that loaded them may be among what was elided, and
 * a model that no longer sees that it loaded a tool stops using it (or
 * searches again). Only announcing what is new would never repeat them.
 *
 * Events: the estimate is `model_request.prompt_tokens_estimate`; each
 * compaction is a `context_compaction`; each re-announcement a
 * `tools_announced`.
 */
import type { SessionEmitter } from '../../events/emitter.js';
import type { Message, Usage } from '../../providers/types.js';
import type { ToolLookup } from '../pipeline/lookup.js';
import { compactHistory } from './compact.js';
import { estimatePromptTokens, BYTES_PER_TOKEN, type CountedPrompt } from './estimate.js';

export interface ContextConfig {
  /** The model's context window in tokens. */
  windowTokens: number;
  /** Share of the window (0 < x ≤ 1) at which compaction starts. */
  compactAt: number;
  /** The latest turns compaction leaves untouched (≥ 1: the model is working on them). */
  keepTurns: number;
}

/** 200k tokens is the window of current Claude models; a suite or `faultline run --context-window` sets another. */
export const DEFAULT_CONTEXT_CONFIG: ContextConfig = { windowTokens: 200_000, compactAt: 0.8, keepTurns: 2 };

export const REANNOUNCE_PREFIX = '<loaded-deferred-tools>';

export interface ContextFaults {
  /** Test-only: compaction drops single messages, splitting tool_use/tool_result pairs. */
  splitPairs?: boolean;
  /** Test-only: no re-announcement of loaded deferred tools after compaction. */
  forgetDeferred?: boolean;
}

export interface PrepareResult {
  /** The estimate of the prompt that will be sent (after any compaction). */
  estimate: number;
  /** Compaction could not bring the prompt under the window: do not send it. */
  stop: boolean;
}

export class ContextManager {
  private counted: CountedPrompt | null = null;
  private lastBytes = 0;

  constructor(
    private readonly config: ContextConfig,
    private readonly emitter: SessionEmitter,
    private readonly registry: ToolLookup,
    private readonly faults: ContextFaults = {},
  ) {}

  get thresholdTokens(): number {
    return Math.floor(this.config.windowTokens * this.config.compactAt);
  }

  /**
   * Estimates the prompt `messages` make (measure: the request's wire bytes
   * for these messages) and compacts them in place when over the threshold.
   */
  prepare(turn: number, messages: Message[], measure: (messages: readonly Message[]) => number): PrepareResult {
    this.compactedLastTurn = false;
    const bytes = measure(messages);
    const before = estimatePromptTokens(bytes, this.counted);
    if (before <= this.thresholdTokens) return this.sent(bytes, before);
    const compacted = compactHistory(messages, {
      keepTurns: Math.max(1, this.config.keepTurns),
      // Down to the threshold, in bytes (the estimate's own ratio when the provider counted more densely).
      saveBytes: Math.ceil(((before - this.thresholdTokens) * bytes) / Math.max(1, before)) || BYTES_PER_TOKEN,
      ...(this.faults.splitPairs ? { splitPairs: true } : {}),
    });
    const changed = compacted.elided + compacted.droppedTurns > 0 || compacted.messages.length !== messages.length;
    this.compactedLastTurn = changed;
    if (changed) messages.splice(0, messages.length, ...compacted.messages);
    const announced = changed && !this.faults.forgetDeferred ? this.reannounce(messages) : 0;
    const afterBytes = changed ? measure(messages) : bytes;
    const after = estimatePromptTokens(afterBytes, this.counted);
    const fits = after <= this.config.windowTokens;
    if (changed || !fits) {
      this.emitter.emit('context_compaction', {
        turn,
        tokens_before: before,
        tokens_after: after,
        threshold_tokens: this.thresholdTokens,
        window_tokens: this.config.windowTokens,
        results_elided: compacted.elided,
        turns_dropped: compacted.droppedTurns,
        fits,
      });
    }
    if (announced > 0) this.emitter.emit('tools_announced', { turn, reason: 'after_compaction', tools_count: announced });
    return { ...this.sent(afterBytes, after), stop: !fits };
  }

  /** Whether the last prepare() compacted (the deferred-tool announcer then announces in full). */
  compactedLastTurn = false;

  /** The provider's count of the prompt just sent (input + cache read + cache write tokens). */
  recordUsage(usage: Usage): void {
    const tokens = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens;
    this.counted = tokens > 0 ? { tokens, bytes: this.lastBytes } : null;
  }

  private sent(bytes: number, estimate: number): PrepareResult {
    this.lastBytes = bytes;
    return { estimate, stop: false };
  }

  /** Appends the full list of loaded deferred tools to the message about to be sent; returns how many. */
  private reannounce(messages: Message[]): number {
    const loaded = this.registry.names().filter((n) => this.registry.isDeferred?.(n) === true && this.registry.isUnloaded?.(n) === false);
    const last = messages[messages.length - 1];
    if (loaded.length === 0 || last?.role !== 'user') return 0;
    last.content = [
      ...last.content,
      {
        type: 'text',
        text: `${REANNOUNCE_PREFIX} Earlier turns were compacted to fit the context window. These deferred tools are still loaded; call them directly, no tool_search needed: ${loaded.join(', ')}.</loaded-deferred-tools>`,
      },
    ];
    return loaded.length;
  }
}
