import { createColors } from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { LoadedTask } from './load-suite.js';
import { summaryText, taskLine } from './run-output.js';
import type { RunSummary } from './run-suite.js';
import type { TaskOutcome } from './run-task.js';

const c = createColors(false);
const outcome = (turns: number, outcome: TaskOutcome['outcome'] = 'passed'): TaskOutcome => ({
  task: { suite: 'demo', id: `t${turns}` } as LoadedTask,
  sessionId: `s${turns}`,
  repeat: 0,
  outcome,
  stop: 'end_turn',
  turns,
  tokens: 10,
  durationMs: 5,
  expectations: [],
  sandbox: 'bubblewrap',
});
const summary = (outcomes: TaskOutcome[], errored = 0): RunSummary => ({ runId: 'r', repeat: 1, outcomes, passed: outcomes.length - errored, failed: 0, errored, aborted: 0, durationMs: 7 });

describe('run output', () => {
  it('says "1 turn" and "2 turns" in the per-task progress line', () => {
    expect(taskLine(outcome(1), 1, 2, c)).toContain('1 turn, end_turn, 5 ms');
    expect(taskLine(outcome(2), 2, 2, c)).toContain('2 turns, end_turn, 5 ms');
  });

  it('says "1 task" and "1 error" in the closing line', () => {
    expect(summaryText(summary([outcome(1)]), 't.jsonl', c)).toContain('1 passed, 0 failed (1 task, 7 ms)');
    expect(summaryText(summary([outcome(1, 'error'), outcome(2)], 1), 't.jsonl', c)).toContain(', 1 error (2 tasks, 7 ms)');
  });
});
