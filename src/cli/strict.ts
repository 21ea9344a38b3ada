/**
 * What `--strict` refuses (report, diff): a quarantined line, an empty input
 * file, or no events at all. Each is a reason a figure may not cover what
 * the user meant to measure.
 */
import type { LoadStats } from '../analysis/load.js';

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The reasons `--strict` fails over these inputs; empty when it passes. */
export function strictProblems(load: Pick<LoadStats, 'quarantined' | 'inputs' | 'eventsUsed'>): string[] {
  const out: string[] = [];
  if (load.quarantined.length > 0) out.push(`${count(load.quarantined.length, 'line')} quarantined`);
  const empty = load.inputs.filter((i) => i.empty).length;
  if (empty > 0) out.push(count(empty, 'empty input file'));
  if (load.eventsUsed === 0) out.push('no events');
  return out;
}
