/**
 * The scheduling seam (seed §6). A scheduler decides the batches a turn's
 * calls run in and then runs each call through the same per-call pipeline.
 * This is the serial version: one call per batch, in call order. The
 * partitioning scheduler with a worker pool plugs in here.
 */
import type { PipelineCall } from '../pipeline/call.js';

export interface Scheduler {
  /** Assign `batch` numbers to the calls (before `tool_call` events are written). */
  plan(calls: PipelineCall[]): void;
  /** Run every call through `runOne`; resolves when all have finished. */
  run(calls: PipelineCall[], runOne: (call: PipelineCall) => Promise<void>): Promise<void>;
}

export const serialScheduler: Scheduler = {
  plan(calls) {
    calls.forEach((call, index) => {
      call.batch = index;
    });
  },
  async run(calls, runOne) {
    for (const call of calls) await runOne(call);
  },
};
