/** `faultline run --json` (and the programmatic `run()`): the run's result as plain data, snake_case. */
import type { RunSummary } from './run-suite.js';

export interface RunTaskJson {
  task_id: string;
  suite: string;
  file: string;
  repeat: number;
  session_id: string;
  outcome: string;
  stop: string;
  turns: number;
  tokens: number;
  duration_ms: number;
  checks: { id: string; ok: boolean; detail: string }[];
  error: string | null;
}

export interface RunJson {
  run_id: string;
  trace: string | null;
  repeat: number;
  tasks_total: number;
  passed: number;
  failed: number;
  errored: number;
  aborted: number;
  duration_ms: number;
  tasks: RunTaskJson[];
}

export function runJson(summary: RunSummary, trace: string | null): RunJson {
  return {
    run_id: summary.runId,
    trace,
    repeat: summary.repeat,
    tasks_total: summary.outcomes.length,
    passed: summary.passed,
    failed: summary.failed,
    errored: summary.errored,
    aborted: summary.aborted,
    duration_ms: Math.round(summary.durationMs),
    tasks: summary.outcomes.map((o) => ({
      task_id: o.task.id,
      suite: o.task.suite,
      file: o.task.file,
      repeat: o.repeat,
      session_id: o.sessionId,
      outcome: o.outcome,
      stop: o.stop,
      turns: o.turns,
      tokens: o.tokens,
      duration_ms: o.durationMs,
      checks: o.expectations.map((x) => ({ id: x.id, ok: x.ok, detail: x.detail })),
      error: o.error ?? null,
    })),
  };
}
