/**
 * Per-task reliability over `--repeat k` sessions: pass@1 with a Wilson 95%
 * interval (how often one try passes) and pass^k (whether all k tries pass,
 * the number that matters for an agent run unattended).
 */
import type { TaskOutcome } from './run-task.js';
import { passHatK, wilson, type Interval } from './stats.js';

export interface TaskReliability {
  taskId: string;
  suite: string;
  trials: number;
  passes: number;
  /** passes / trials. */
  pass1: number;
  pass1Interval: Interval;
  /** Estimate of P(all k of k tries pass); with trials = k it is 1 or 0. */
  passHatK: number;
}

export function taskReliability(outcomes: TaskOutcome[], k: number): TaskReliability[] {
  const byTask = new Map<string, TaskOutcome[]>();
  for (const o of outcomes) {
    const list = byTask.get(o.task.id) ?? [];
    list.push(o);
    byTask.set(o.task.id, list);
  }
  return [...byTask.values()].map((list) => {
    const passes = list.filter((o) => o.outcome === 'passed').length;
    const trials = list.length;
    return {
      taskId: list[0]!.task.id,
      suite: list[0]!.task.suite,
      trials,
      passes,
      pass1: passes / trials,
      pass1Interval: wilson(passes, trials),
      passHatK: passHatK(passes, trials, Math.min(k, trials)),
    };
  });
}
