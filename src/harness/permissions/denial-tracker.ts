/**
 * Denial tracking with a fuse (docs/harness-rules.md#denial-fuse). The model asks for something, is
 * refused, and asks again: after `threshold` denials of the same
 * tool the fuse trips, and further calls of that tool are refused at the
 * chain's `denial_fuse` step with a message to stop retrying. Denials are
 * counted per tool over the whole session (allowed calls in between do not
 * reset the count: a model alternating `ls` with the same refused `rm` is
 * still looping).
 *
 * Counting happens at ONE point: `record()`, called once per call with the
 * call's FINAL decision — a hard deny, a headless ask turned deny, or a human
 * refusing an ask all arrive here (the ask path must be counted too:
 * a refusal by a person is a denial like any other). `tripped: true` is returned only on the transition, so the
 * caller emits `defense_trigger{defense:'denial_fuse', action:'fuse'}` once
 * per trip, not once per check (counting checks instead of trips is the "judged vs triggered" trap, docs/harness-rules.md#judged-vs-triggered).
 *
 * Reset: an allowed call of a FUSED tool (only a human approving the fuse's
 * ask can produce one) clears its count and its fuse — the human intervened;
 * `reset()` clears explicitly. A new session
 * gets a new tracker. Keys are tool names only (a closed label set), never
 * paths or commands.
 */
export interface FuseRecord {
  /** Denials of this tool so far in the session (since the last reset). */
  readonly count: number;
  /** This record tripped the fuse (true exactly once per trip). */
  readonly tripped: boolean;
}

export class DenialTracker {
  readonly threshold: number;
  readonly #counts = new Map<string, number>();
  readonly #fused = new Set<string>();
  #evaluated = 0;
  #triggered = 0;

  constructor(options: { threshold?: number } = {}) {
    this.threshold = Math.max(1, options.threshold ?? 3);
  }

  /** Call once per tool call, with its final decision. */
  record(tool: string, decision: 'allow' | 'deny'): FuseRecord {
    this.#evaluated++;
    if (decision === 'allow') {
      if (this.#fused.has(tool)) this.reset(tool);
      return { count: this.count(tool), tripped: false };
    }
    const count = (this.#counts.get(tool) ?? 0) + 1;
    this.#counts.set(tool, count);
    if (count >= this.threshold && !this.#fused.has(tool)) {
      this.#fused.add(tool);
      this.#triggered++;
      return { count, tripped: true };
    }
    return { count, tripped: false };
  }

  isTripped(tool: string): boolean {
    return this.#fused.has(tool);
  }

  count(tool: string): number {
    return this.#counts.get(tool) ?? 0;
  }

  reset(tool?: string): void {
    if (tool === undefined) {
      this.#counts.clear();
      this.#fused.clear();
      return;
    }
    this.#counts.delete(tool);
    this.#fused.delete(tool);
  }

  /** For defense_stats at session end: records evaluated, trips. */
  stats(): { evaluated: number; triggered: number } {
    return { evaluated: this.#evaluated, triggered: this.#triggered };
  }
}
