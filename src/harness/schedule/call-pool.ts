/**
 * The worker pool that runs a turn's calls (docs/harness-rules.md#worker-pool, docs/harness-rules.md#streaming-execution). Calls are
 * queued in arrival order; a freed slot immediately takes the next call (no
 * Promise.all slices, where a batch waits for its slowest member). Start rule,
 * the partition of docs/harness-rules.md#greedy-partition applied incrementally:
 *   nothing running -> the head call starts (an unsafe call gets the window alone);
 *   otherwise the head starts only if it is concurrency-safe, every running
 *   call is in its batch, and fewer than `limit` are running.
 * The queue is FIFO: a call never overtakes an earlier one, so batches keep
 * their order. Arrays (batch mode) and streams (streaming mode) go through
 * this same code, which is why the two modes give the same outcomes.
 *
 * A started call can ask to run alone (`call.runAlone`, used when a hook
 * rewrote a concurrency-safe call into one that is not): it waits until every
 * other running call has finished or is waiting too, and nothing new starts
 * until it is done. Waiters go one at a time in call order, so two of them
 * never wait on each other.
 */
import type { PipelineCall } from '../pipeline/call.js';
import { BashCascade } from './bash-cascade.js';
import { OrderedCommit } from './ordered-commit.js';
import type { CallOutcome, RunOne } from './types.js';

export interface CallPoolOptions {
  limit: number;
  runOne: RunOne;
  cascade?: boolean;
  /** While this returns true, a call that is not concurrency-safe waits (streaming: no side effect before the turn is known to execute). */
  holdUnsafe?: () => boolean;
  onModifierError?: (error: unknown, index: number) => void;
}

interface Entry {
  call: PipelineCall;
  index: number;
}

export class CallPool {
  private readonly queue: Entry[] = [];
  private readonly running = new Set<Entry>();
  private readonly cascade: BashCascade;
  private readonly commit: OrderedCommit;
  private readonly limit: number;
  private added = 0;
  private idle: (() => void)[] = [];
  /** Calls paused until they can run alone, and the one running alone now. */
  private readonly waitingAlone = new Map<Entry, () => void>();
  private alone: Entry | null = null;
  /** Most calls ever running at once (observability, tests). */
  peak = 0;

  constructor(private readonly options: CallPoolOptions) {
    this.limit = Math.max(1, Math.floor(options.limit));
    this.cascade = new BashCascade(options.cascade ?? true);
    this.commit = new OrderedCommit(options.onModifierError);
  }

  add(call: PipelineCall): void {
    this.queue.push({ call, index: this.added++ });
    this.pump();
  }

  /** Re-check the queue (e.g. after `holdUnsafe` changed). */
  wake(): void {
    this.pump();
  }

  /** Remove calls that have not started; they will not run. */
  dropQueued(): PipelineCall[] {
    const dropped = this.queue.splice(0).map((e) => e.call);
    this.settleIdle();
    return dropped;
  }

  /** Resolves once nothing is queued or running. Call after the last `add`. */
  drained(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    for (let head = this.queue[0]; head && this.canStart(head); head = this.queue[0]) {
      this.queue.shift();
      this.start(head);
    }
    this.settleIdle();
  }

  private canStart(entry: Entry): boolean {
    if (this.alone !== null || this.waitingAlone.size > 0) return false;
    const safe = entry.call.concurrencySafe;
    if (!safe && this.options.holdUnsafe?.()) return false;
    if (this.running.size === 0) return true;
    if (!safe || this.running.size >= this.limit) return false;
    for (const other of this.running) if (other.call.batch !== entry.call.batch) return false;
    return true;
  }

  /** Resolves when `entry` may run with no other call running (see the class comment). */
  private runAlone(entry: Entry): Promise<void> {
    return new Promise((resolve) => {
      this.waitingAlone.set(entry, resolve);
      this.grantAlone();
    });
  }

  private grantAlone(): void {
    if (this.alone !== null || this.waitingAlone.size === 0) return;
    for (const other of this.running) if (!this.waitingAlone.has(other)) return;
    const first = [...this.waitingAlone.keys()].reduce((a, b) => (a.index < b.index ? a : b));
    const resolve = this.waitingAlone.get(first) as () => void;
    this.waitingAlone.delete(first);
    this.alone = first;
    resolve();
  }

  private start(entry: Entry): void {
    entry.call.runAlone = () => this.runAlone(entry);
    this.running.add(entry);
    this.peak = Math.max(this.peak, this.running.size);
    const name = entry.call.block.name;
    const signal = this.cascade.signalFor(entry.index, name);
    void this.options
      .runOne(entry.call, signal)
      // runOne must not throw; if it does anyway the call counts as failed and the pool goes on.
      .catch((): CallOutcome => ({ failureKind: 'exception' }))
      .then((outcome) => {
        this.running.delete(entry);
        if (this.alone === entry) this.alone = null;
        this.grantAlone();
        this.cascade.settled(entry.index, name, outcome.failureKind);
        this.commit.settle(entry.index, outcome.contextModifier);
        this.pump();
      });
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.running.size === 0;
  }

  private settleIdle(): void {
    if (!this.isIdle() || this.idle.length === 0) return;
    const waiters = this.idle.splice(0);
    for (const resolve of waiters) resolve();
  }
}
