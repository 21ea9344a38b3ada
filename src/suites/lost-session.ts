/**
 * A session whose worker thread stopped under it (thread-pool.ts): it ends as
 * faultline's error, never as the task's failure, and the trace says so.
 */
import type { RunEmitter } from '../events/emitter.js';
import type { RunUnit } from './run-suite.js';
import type { TaskOutcome } from './run-task.js';
import { outcomeTokens, type SessionUsage } from './session-usage.js';

/** A session handed to a worker thread, as the main thread tracks it until it ends. */
export interface HandedSession {
  unit: RunUnit;
  /** Its session_start is in the trace. */
  started: boolean;
  /** When it was handed to the thread (performance.now()). */
  at: number;
  /** The turns and tokens of its events in the trace. */
  usage: SessionUsage;
}

/**
 * The outcome of a lost session; writes its session_end when its start is in the trace, so the trace does not show
 * it as cut short by a kill, with the turns and tokens of its events there (reports sum session_end's tokens).
 */
export function endLostSession(run: RunEmitter, { unit, started, at, usage }: HandedSession, why: string): TaskOutcome {
  const durationMs = Math.round(performance.now() - at);
  if (started) run.session(unit.sessionId, unit.task.id).emit('session_end', { outcome: 'error', stop: 'harness_error', ...usage, duration_ms: durationMs });
  return {
    task: unit.task,
    sessionId: unit.sessionId,
    repeat: unit.r,
    outcome: 'error',
    stop: 'harness_error',
    turns: usage.turns,
    tokens: outcomeTokens(usage),
    durationMs,
    expectations: [],
    error: `internal error: the worker thread running task ${unit.task.id} stopped (${why}); the run starts no more tasks`,
  };
}
