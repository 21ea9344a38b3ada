/**
 * The scheduling seam (docs/harness-rules.md#concurrency, docs/harness-rules.md#streaming-execution): which calls of a turn run together and
 * when. Batch numbers come from the BatchPlanner (greedy contiguous
 * partition); the CallPool runs the calls under those batches with a bounded
 * worker pool, the bash cascade and in-order context modifiers. Batch mode
 * hands it an array; streaming mode hands it a stream of calls that are
 * started while the model is still talking — same pool, same outcomes.
 */
import type { PipelineCall } from '../pipeline/call.js';
import { CallPool } from './call-pool.js';
import { maxToolConcurrency } from './max-concurrency.js';
import type { CallSource, RunOne, Scheduler } from './types.js';

export type { CallOutcome, CallSource, ContextModifier, RunOne, Scheduler } from './types.js';

export interface SchedulerOptions {
  /** Pool size; default FAULTLINE_MAX_TOOL_CONCURRENCY or 10, read when the scheduler is created. */
  maxConcurrency?: number;
  /** Bash cascade on (default). Off only to show that the cascade scenario fails without it. */
  cascade?: boolean;
  /** Streaming: unsafe calls wait while this returns true (see StreamingTurn). */
  holdUnsafe?: () => boolean;
  /** Called with the pool as soon as a run starts (streaming uses it to wake or drop queued calls). */
  onPool?: (pool: CallPool) => void;
}

export function createScheduler(options: SchedulerOptions = {}): Scheduler {
  const limit = options.maxConcurrency ?? maxToolConcurrency();
  return {
    async run(source: CallSource, runOne: RunOne): Promise<void> {
      const pool = new CallPool({ limit, runOne, cascade: options.cascade, holdUnsafe: options.holdUnsafe });
      options.onPool?.(pool);
      try {
        if (isAsync(source)) {
          for await (const call of source) pool.add(call);
        } else {
          for (const call of source) pool.add(call);
        }
      } finally {
        // A stream that breaks off still leaves started calls to finish: never abandon them.
        await pool.drained();
      }
    },
  };
}

/** One call at a time, in call order (a baseline for comparisons and benchmarks). */
export const serialScheduler: Scheduler = createScheduler({ maxConcurrency: 1 });

function isAsync(source: CallSource): source is AsyncIterable<PipelineCall> {
  return typeof (source as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';
}
