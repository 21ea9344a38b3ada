/**
 * One PreToolUse run per call, across the attempts of a streamed turn (the
 * guide on streaming execution: a hook fired early and then again on the
 * later path runs the user's script twice, a real bug when the script has
 * side effects; its fix is a cache of the early verdict, taken on use).
 *
 * A streamed attempt starts safe calls early, so their hook runs before the
 * response is complete. When the attempt is dropped (the stream broke and is
 * retried, or the turn falls back to the batch path), the same call comes
 * again: it takes the verdict of the earlier run instead of running the hook
 * a second time, and writes that run's `hook` event for itself. A run that no
 * later call takes (the retried response did not repeat the call) is still a
 * run: `unclaimed()` hands back its event, so the trace shows every run.
 *
 * Matched by tool and input (a retried response gives its calls new ids), and
 * only across attempts: two equal calls of one response each run the hook.
 */
import { callSignature } from '../defenses/call-key.js';
import type { StageResult } from './call.js';
import type { HookDecision } from '../permissions/types.js';

/** What the PreToolUse stage decided for one call (kept here so the memo and the stage read top-down). */
export interface PreHookVerdict {
  input: unknown;
  /** The hook's input really differs from the model's (deep comparison, not reference). */
  modified: boolean;
  decision: HookDecision | null;
}

export type PreHookEffect = 'none' | 'blocked' | 'input_modified' | 'decision';

/** What one hook run decided and what its event said. */
export interface PreHookRun {
  result: StageResult<PreHookVerdict>;
  effect: PreHookEffect;
  durationMs: number;
  /** The event fields of the call the hook ran for. */
  turn: number;
  tool: string;
  toolUseId: string;
}

interface Entry {
  key: string;
  attempt: number;
  /** Recorded when the run starts: a later call may come while it is still running. */
  run: Promise<PreHookRun>;
  taken: boolean;
}

export class PreHookMemo {
  private readonly entries: Entry[] = [];
  private readonly dropped = new Set<number>();

  /** The memo as one attempt sees it (a streamed attempt, or the batch path after them). */
  forAttempt(attempt: number): AttemptHookMemo {
    return {
      take: (tool, input) => {
        const key = callSignature(tool, input);
        const entry = this.entries.find((e) => !e.taken && e.key === key && e.attempt !== attempt && this.dropped.has(e.attempt));
        if (!entry) return null;
        entry.taken = true;
        return entry.run;
      },
      record: (tool, input, run) => void this.entries.push({ key: callSignature(tool, input), attempt, run, taken: false }),
    };
  }

  /** The attempt's held events were dropped: its runs are visible only if a later call takes them or `unclaimed()` writes them. */
  dropAttempt(attempt: number): void {
    this.dropped.add(attempt);
  }

  /** Runs of dropped attempts no later call took (each returned once): write their events. */
  async unclaimed(): Promise<PreHookRun[]> {
    const out = this.entries.filter((e) => !e.taken && this.dropped.has(e.attempt));
    for (const e of out) e.taken = true;
    return Promise.all(out.map((e) => e.run));
  }
}

export interface AttemptHookMemo {
  /** The run of an equal call in a dropped attempt, taken (once), or null. */
  take(tool: string, input: unknown): Promise<PreHookRun> | null;
  record(tool: string, input: unknown, run: Promise<PreHookRun>): void;
}
