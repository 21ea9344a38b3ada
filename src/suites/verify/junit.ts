/**
 * `faultline verify-defense --junit <file>`: one <testsuite> per defense, one
 * <testcase> per scenario run (fault scenario and control with the defense
 * on, fault scenario with it off); a failed check is a <failure> with every
 * problem of that run, a run skipped for want of an OS sandbox is <skipped>
 * with the reason, and a defense-level gap (no fault scenario, no control)
 * is a failed `catalog` case.
 */
import { renderJunit, type JunitCase, type JunitSuite } from '../../report/junit.js';
import type { DefenseVerdict } from './verify-defense.js';

export function verifyJunit(verdicts: readonly DefenseVerdict[], timestamp = new Date()): string {
  const stamp = timestamp.toISOString().replace(/\.\d+Z$/, '');
  const suites: JunitSuite[] = verdicts.map((v) => {
    const classname = `verify-defense.${v.defense}`;
    const cases: JunitCase[] = v.checks.map((c) => ({
      name: `${c.scenario} (${c.role}, ${c.run})`,
      classname,
      timeSeconds: c.durationMs / 1000,
      ...(c.ok ? {} : { failure: { message: c.problems[0]!, type: c.problems.some((p) => p.includes('false positive')) ? 'false_positive' : 'verification', detail: c.problems.join('\n') } }),
    }));
    for (const s of v.skipped) cases.push({ name: `${s.scenario} (${s.role}, ${s.run})`, classname, timeSeconds: 0, skipped: s.reason });
    const gaps = v.problems.filter((p) => !v.checks.some((c) => c.problems.some((q) => p === `${c.scenario}: ${q}`)));
    if (gaps.length > 0) cases.push({ name: 'catalog', classname, timeSeconds: 0, failure: { message: gaps[0]!, type: 'catalog', detail: gaps.join('\n') } });
    return { name: `${v.defense} (${v.action}, ${v.origin})`, cases, timestamp: stamp };
  });
  return renderJunit('faultline verify-defense', suites);
}
