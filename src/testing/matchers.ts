/**
 * vitest (or Jest) matchers over a session's events: `expect.extend(faultlineMatchers)`.
 *   expect(run).toHaveFired('identical_call_loop')
 *   expect(run).toHaveNoLostCalls()
 *   expect(run).toHaveFailureKind('permission_denied', 2)
 * `run` is a runScenario() result or an array of events.
 */
import type { FaultlineEvent } from '../events/index.js';

type Received = { events: readonly FaultlineEvent[] } | readonly FaultlineEvent[];

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

function eventsOf(received: Received): readonly FaultlineEvent[] {
  if (Array.isArray(received)) return received as readonly FaultlineEvent[];
  if (received && typeof received === 'object' && Array.isArray((received as { events?: unknown }).events)) return (received as { events: FaultlineEvent[] }).events;
  throw new TypeError('expected a runScenario() result or an array of faultline events');
}

export const faultlineMatchers = {
  /** The defense fired (a defense_trigger event) at least once, or exactly `times` times. */
  toHaveFired(received: Received, defense: string, times?: number): MatcherResult {
    const events = eventsOf(received);
    const triggers = events.filter((e) => e.event === 'defense_trigger' && e.defense === defense);
    const stats = events.find((e) => e.event === 'defense_stats' && e.defense === defense);
    const armed = events.some((e) => e.event === 'session_start' && (e.defenses_armed ?? []).includes(defense));
    const pass = times === undefined ? triggers.length > 0 : triggers.length === times;
    const why = !armed ? 'it was not armed' : stats && stats.event === 'defense_stats' ? `it was evaluated ${stats.evaluated} times` : 'no defense_stats';
    return {
      pass,
      message: () =>
        pass
          ? `expected ${defense} not to fire${times === undefined ? '' : ` ${times} times`}, but it fired ${triggers.length} times`
          : `expected ${defense} to fire${times === undefined ? '' : ` ${times} times`}, but it fired ${triggers.length} times (${why})`,
    };
  },

  /** Every tool_call ended in exactly one tool_success or tool_failure (docs/harness-rules.md#tool-funnel). */
  toHaveNoLostCalls(received: Received): MatcherResult {
    const events = eventsOf(received);
    const calls = events.filter((e) => e.event === 'tool_call').map((e) => (e.event === 'tool_call' ? e.tool_use_id : ''));
    const settled = new Map<string, number>();
    for (const e of events) if (e.event === 'tool_success' || e.event === 'tool_failure') settled.set(e.tool_use_id, (settled.get(e.tool_use_id) ?? 0) + 1);
    const lost = calls.filter((id) => !settled.has(id));
    const twice = [...settled].filter(([, n]) => n > 1).map(([id]) => id);
    const pass = lost.length === 0 && twice.length === 0 && settled.size === new Set(calls).size;
    return {
      pass,
      message: () =>
        pass
          ? 'expected lost calls, but every call was settled exactly once'
          : `expected every tool_call settled once: ${lost.length} lost (${lost.slice(0, 5).join(', ')}), ${twice.length} settled twice`,
    };
  },

  /** Exactly `count` tool_failure events of this failure kind (optionally of one tool). */
  toHaveFailureKind(received: Received, kind: string, count: number, tool?: string): MatcherResult {
    const failures = eventsOf(received).filter((e) => e.event === 'tool_failure' && e.failure_kind === kind && (tool === undefined || e.tool === tool));
    const pass = failures.length === count;
    const of = tool === undefined ? '' : ` of ${tool}`;
    return {
      pass,
      message: () => (pass ? `expected not ${count} ${kind} failures${of}, but there were` : `expected ${count} ${kind} failures${of}, got ${failures.length}`),
    };
  },
};

/** For `declare module 'vitest' { interface Assertion<T> extends FaultlineMatchers<T> {} }`. */
export interface FaultlineMatchers<R = unknown> {
  toHaveFired(defense: string, times?: number): R;
  toHaveNoLostCalls(): R;
  toHaveFailureKind(kind: string, count: number, tool?: string): R;
}
