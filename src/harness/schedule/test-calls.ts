/** Test helpers for the scheduler's unit tests (imported only by *.test.ts). */
import type { PipelineCall } from '../pipeline/call.js';
import { BatchPlanner } from './batch-planner.js';
import type { CallOutcome } from './types.js';

/** Planned calls from a compact spec: `R` safe read, `E` unsafe edit, `b` safe bash, `B` unsafe bash. */
export function plannedCalls(spec: string): PipelineCall[] {
  const planner = new BatchPlanner();
  return [...spec].map((ch, i) => {
    const name = ch === 'R' ? 'read' : ch === 'E' ? 'edit' : 'bash';
    const call: PipelineCall = { block: { type: 'tool_use', id: `c${i}`, name, input: {} }, turn: 1, batch: 0, startedAt: 0 };
    planner.assign(call, ch === 'R' || ch === 'b');
    return call;
  });
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A runOne whose calls finish only when the test says so; logs `start:id` / `end:id`. */
export function controlledRunOne() {
  const log: string[] = [];
  const pending = new Map<string, Deferred<CallOutcome>>();
  const signals = new Map<string, AbortSignal>();
  let running = 0;
  let peak = 0;
  const runOne = async (call: PipelineCall, cancel: AbortSignal): Promise<CallOutcome> => {
    const id = call.block.id;
    log.push(`start:${id}`);
    signals.set(id, cancel);
    peak = Math.max(peak, ++running);
    const d = deferred<CallOutcome>();
    pending.set(id, d);
    const outcome = await d.promise;
    running--;
    log.push(`end:${id}`);
    return outcome;
  };
  return {
    runOne,
    log,
    signals,
    peak: () => peak,
    started: (id: string) => pending.has(id),
    finish: async (id: string, outcome: CallOutcome = { failureKind: null }) => {
      const d = pending.get(id);
      if (!d) throw new Error(`${id} has not started`);
      d.resolve(outcome);
      await flush();
    },
  };
}

/** Let queued promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
