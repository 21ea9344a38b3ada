/**
 * The layout of a session's timeline, shared by the HTML and terminal views:
 * tool calls in lanes (a call goes in the first lane free at its start, so
 * calls that ran at the same time sit side by side in lanes of their own),
 * and the time span every bar and mark is drawn against.
 */
import type { Row } from '../analysis/duck.js';
import type { SessionView } from '../analysis/session-view.js';

export interface Span {
  start: number;
  /** Equal to start for a call with no result (lost) or a step that took no time. */
  end: number;
}

export interface LaidCall extends Span {
  lane: number;
  row: Row;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A row's span in ms from the session's start, or null when the trace gives it no time. */
export function spanOf(row: Row): Span | null {
  const start = num(row.start_ms);
  if (start === null) return null;
  return { start, end: Math.max(start, num(row.end_ms) ?? start) };
}

/** Tool calls in lanes, in start order; calls with no time are left out (listed in the table only). */
export function layLanes(calls: readonly Row[]): { calls: LaidCall[]; lanes: number } {
  const ends: number[] = [];
  const out: LaidCall[] = [];
  const timed = calls.map((row) => ({ row, span: spanOf(row) })).filter((c): c is { row: Row; span: Span } => c.span !== null);
  timed.sort((a, b) => a.span.start - b.span.start);
  for (const { row, span } of timed) {
    // A lane is free once its last call has ended before this one starts (strictly: calls of one batch often share a millisecond).
    let lane = ends.findIndex((end) => end < span.start);
    if (lane === -1) lane = ends.length;
    ends[lane] = Math.max(span.end, span.start);
    out.push({ ...span, lane, row });
  }
  return { calls: out, lanes: ends.length };
}

/** The session's length in ms: its recorded duration, or its last step, whichever is later (at least 1). */
export function sessionSpan(view: SessionView): number {
  const ends = [...view.model, ...view.calls].map((r) => spanOf(r)?.end ?? 0);
  const marks = view.marks.map((m) => num(m.at_ms) ?? 0);
  return Math.max(1, num(view.facts.duration_ms) ?? 0, ...ends, ...marks);
}

/** What a call's bar says about its result: ok, failed (by kind), in flight when the run was killed (cut_short), or lost. */
export function callClass(row: Row): 'ok' | 'failed' | 'timeout' | 'skipped' | 'cut_short' | 'lost' {
  if (row.result === 'success') return 'ok';
  if (row.result === 'lost') return 'lost';
  if (row.result === 'cut_short') return 'cut_short';
  if (row.failure_kind === 'timeout') return 'timeout';
  if (row.failure_kind === 'cascade_skipped' || row.failure_kind === 'aborted') return 'skipped';
  return 'failed';
}
