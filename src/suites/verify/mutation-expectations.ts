/**
 * A scenario run with its defense switched off must fail on what the
 * defense changes — the answer, the stop, the files, the other events — not
 * on the defense's own trigger count, which fails trivially when the defense
 * is off (and so would prove nothing). Such expectations are left out of a
 * mutation run. Exception: an `alert` defense changes nothing but its report,
 * so its own events are the behaviour under test and stay.
 */
import type { DefenseAction } from '../../events/labels.js';
import { parseEventAssertion } from '../event-assertion.js';
import type { LoadedTask } from '../load-suite.js';

const DEFENSE_EVENTS = new Set(['defense_trigger', 'defense_stats']);

export function withoutDefenseExpectations(task: LoadedTask, action: DefenseAction): LoadedTask {
  if (action === 'alert' || !task.expect.events) return task;
  const events = task.expect.events.filter((source) => {
    const { metric } = parseEventAssertion(source);
    return metric.kind === 'lost' || !DEFENSE_EVENTS.has(metric.event);
  });
  return { ...task, expect: { ...task.expect, events } };
}
