/**
 * `faultline run --junit <file>`: one <testcase> per task and repeat, in one
 * <testsuite> per suite; a failed task is a <failure> whose message is its
 * first failed expectation and whose body lists every one; a session that
 * could not run (harness error) or was aborted is an <error>.
 */
import { renderJunit, type JunitCase, type JunitSuite } from '../report/junit.js';
import type { RunSummary } from './run-suite.js';
import type { TaskOutcome } from './run-task.js';

function caseOf(o: TaskOutcome, repeats: number): JunitCase {
  const c: JunitCase = { name: repeats > 1 ? `${o.task.id} [repeat ${o.repeat + 1}/${repeats}]` : o.task.id, classname: o.task.suite, timeSeconds: o.durationMs / 1000 };
  const failed = o.expectations.filter((x) => !x.ok);
  if (o.outcome === 'failed') {
    const lines = failed.map((x) => `${x.id}: ${x.detail}`);
    c.failure = { message: failed[0]?.detail ?? `the session ended ${o.stop}`, type: 'expectation', detail: [`${failed.length} of ${o.expectations.length} checks failed (stop: ${o.stop}, ${o.turns} turns)`, ...lines].join('\n') };
  } else if (o.outcome !== 'passed') {
    const message = o.error ?? `the session was ${o.outcome} (stop: ${o.stop})`;
    c.error = { message: message.split('\n')[0]!, type: o.outcome === 'aborted' ? 'aborted' : 'harness_error', detail: message };
  }
  return c;
}

export function runJunit(summary: RunSummary, started = new Date(Date.now() - summary.durationMs)): string {
  const suites = new Map<string, JunitSuite>();
  for (const o of summary.outcomes) {
    const s = suites.get(o.task.suite) ?? { name: o.task.suite, cases: [], timestamp: started.toISOString().replace(/\.\d+Z$/, '') };
    s.cases.push(caseOf(o, summary.repeat));
    suites.set(o.task.suite, s);
  }
  return renderJunit(`faultline run ${summary.runId}`, [...suites.values()]);
}
