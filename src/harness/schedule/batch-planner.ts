/**
 * Greedy contiguous partitioning (docs/harness-rules.md#greedy-partition): consecutive concurrency-safe
 * calls share a batch; every unsafe call is a batch of its own; batches run
 * strictly in order. Contiguity keeps the model's implied order:
 * `[Read a, Edit a, Read a]` is three batches, so the second read sees the edit.
 * The planner is incremental because a call's batch depends only on the calls
 * before it, which lets streaming (calls arriving one by one) number batches
 * exactly as batch mode does.
 */
import type { PipelineCall } from '../pipeline/call.js';

export class BatchPlanner {
  private batch = -1;
  private lastSafe = false;

  /** Set `call.batch` and `call.concurrencySafe` for the next call in arrival order. */
  assign(call: PipelineCall, concurrencySafe: boolean): void {
    if (this.batch < 0 || !concurrencySafe || !this.lastSafe) this.batch++;
    this.lastSafe = concurrencySafe;
    call.batch = this.batch;
    call.concurrencySafe = concurrencySafe;
  }
}

/** The batches of a planned call list, in order (for tests and reports). */
export function batchesOf<T extends { batch: number }>(calls: readonly T[]): T[][] {
  const out: T[][] = [];
  for (const call of calls) {
    const last = out[out.length - 1];
    if (last && last[0]!.batch === call.batch) last.push(call);
    else out.push([call]);
  }
  return out;
}
