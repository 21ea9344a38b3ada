/**
 * The streaming scheduler's turn (docs/harness-rules.md#streaming-execution): calls start while the model is
 * still streaming, each one the moment its tool_use block is complete (the
 * adapter's `onToolUse`). It is the same per-call pipeline (runTurnCalls) and
 * the same pool as batch mode, fed from a stream instead of an array, so
 * hooks fire once per call and outcomes match batch mode exactly:
 * - only concurrency-safe calls start early; a call with side effects waits
 *   until the response is complete and the loop decided to execute the turn
 *   (nothing speculative that cannot be undone, docs/harness-rules.md#streaming-execution);
 * - the attempt's events are held until then; a turn that is not executed
 *   (cut by max_tokens, null/unknown stop, pause, a failed attempt that is
 *   retried, an abort during the model call) drops them and stops its early
 *   calls, so the trace is what batch mode writes;
 * - the streamed blocks must be the first blocks of the final response, in
 *   order; otherwise (a block the adapter could not report, e.g. malformed
 *   arguments) the attempt is dropped and the turn runs in batch mode.
 * - the attempt's defense counts are held with its events (held-meter.ts),
 *   and a hook defense's beforeToolCall judges an early call only once the
 *   turn is known to execute, so a defense never judges a call the session
 *   did not make and streaming on/off report the same defense_stats.
 * - a dropped early call has run its PreToolUse hook: the same call in the
 *   retried attempt (or the batch path) takes that verdict instead of running
 *   the user's hook again, and a run no later call takes still gets its
 *   `hook` event when the turn ends (`finish`), so the trace shows every run
 *   (pre-hook-memo.ts).
 * Known limit: a dropped early call has run its permission check and its read.
 */
import { SessionEmitter } from '../../events/emitter.js';
import type { CompleteOptions, ToolResultBlock, ToolUseBlock } from '../../providers/types.js';
import { runTurnCalls, type TurnCallsOptions } from '../pipeline/run-turn-calls.js';
import { PreHookMemo } from '../pipeline/pre-hook-memo.js';
import { emitUnclaimedHook } from '../pipeline/pre-tool-hook.js';
import { BlockFeed } from './block-feed.js';
import type { CallPool } from './call-pool.js';
import { HeldMeter } from './held-meter.js';
import { HeldSink } from './held-sink.js';
import { createScheduler, type SchedulerOptions } from './scheduler.js';

type Options = Omit<TurnCallsOptions, 'rejectAsCut' | 'scheduler'> & { scheduling?: Omit<SchedulerOptions, 'holdUnsafe' | 'onPool'> };

class Attempt {
  readonly streamed: ToolUseBlock[] = [];
  private readonly feed = new BlockFeed();
  private readonly sink: HeldSink;
  private readonly meter: HeldMeter | undefined;
  /** Resolves true when the turn executes, false when the attempt is dropped. */
  private decide: (executes: boolean) => void = () => undefined;
  private readonly decided = new Promise<boolean>((resolve) => (this.decide = resolve));
  private readonly stop = new AbortController();
  private hold = true;
  private pool: CallPool | null = null;
  readonly results: Promise<ToolResultBlock[]>;

  constructor(
    turn: number,
    options: Options,
    private readonly hookMemo: PreHookMemo,
    private readonly id: number,
  ) {
    const { emitter } = options;
    this.sink = new HeldSink(emitter.sink);
    this.meter = options.defenses ? new HeldMeter(options.defenses) : undefined;
    const guard = options.guard;
    const scheduler = createScheduler({ ...options.scheduling, holdUnsafe: () => this.hold, onPool: (pool) => (this.pool = pool) });
    this.results = runTurnCalls(this.feed, turn, {
      ...options,
      emitter: new SessionEmitter(this.sink, emitter.runId, emitter.sessionId, emitter.taskId),
      defenses: this.meter,
      // A dropped attempt's call is not judged at all (its result is never used).
      guard: guard && (async (view, label) => ((await this.decided) ? guard(view, label) : null)),
      // Dropping the attempt stops its early calls; their results are never used.
      signal: AbortSignal.any([options.signal, this.stop.signal]),
      scheduler,
      hookMemo: hookMemo.forAttempt(id),
    });
  }

  push(block: ToolUseBlock): void {
    this.streamed.push(block);
    this.feed.push(block);
  }

  async execute(rest: readonly ToolUseBlock[]): Promise<ToolResultBlock[]> {
    this.sink.release();
    this.meter?.release();
    this.decide(true);
    for (const block of rest) this.feed.push(block);
    this.feed.end();
    this.hold = false;
    this.pool?.wake();
    return this.results;
  }

  async drop(): Promise<void> {
    this.hookMemo.dropAttempt(this.id);
    this.sink.drop();
    this.meter?.drop();
    this.decide(false);
    this.stop.abort('discarded');
    this.pool?.dropQueued();
    this.feed.end();
    await this.results.catch(() => undefined);
  }
}

export class StreamingTurn {
  private attempt: Attempt | null = null;
  private readonly hooks = new PreHookMemo();
  private attempts = 0;
  /** The batch path's view of the memo (it runs after every attempt was dropped). */
  readonly batchHooks = this.hooks.forAttempt(0);

  constructor(
    private readonly turn: number,
    private readonly options: Options,
  ) {}

  /** Spread into callModel(): the adapter reports complete blocks, a retry drops the failed attempt's work. */
  readonly modelHooks: Required<CompleteOptions> & { onRetry(): void } = {
    onToolUse: (block) => (this.attempt ??= new Attempt(this.turn, this.options, this.hooks, ++this.attempts)).push(block),
    onRetry: () => void this.dropCurrent(),
  };

  /**
   * The response is complete. `execute`: the loop runs this turn's calls.
   * Returns the results when the streamed attempt ran them, or null when the
   * caller must take the batch path (nothing streamed, not executed, or the
   * streamed blocks are not the response's first blocks).
   */
  async conclude(toolUses: readonly ToolUseBlock[], execute: boolean): Promise<ToolResultBlock[] | null> {
    const attempt = this.attempt;
    this.attempt = null;
    if (!attempt) return null;
    if (!execute || !isPrefix(attempt.streamed, toolUses)) {
      await attempt.drop();
      return null;
    }
    return attempt.execute(toolUses.slice(attempt.streamed.length));
  }

  /** The turn ends without running calls (stop, abort, model error): drop what the attempt started. */
  async discard(): Promise<void> {
    await this.dropCurrent();
    await this.finish();
  }

  /**
   * The turn's calls are settled: the `hook` event of each PreToolUse run
   * that was dropped with its attempt and taken by no later call (it ran, so
   * the trace says so).
   */
  async finish(): Promise<void> {
    for (const run of await this.hooks.unclaimed()) emitUnclaimedHook(this.options.emitter, run);
  }

  private async dropCurrent(): Promise<void> {
    const attempt = this.attempt;
    this.attempt = null;
    await attempt?.drop();
  }
}

function isPrefix(streamed: readonly ToolUseBlock[], all: readonly ToolUseBlock[]): boolean {
  return streamed.length <= all.length && streamed.every((b, i) => b.id === all[i]!.id && b.name === all[i]!.name);
}
