/**
 * How every renderer lists quarantined lines: the first QUARANTINE_SHOWN of
 * them (--json has all). Terminal and JSON keep the contract's
 * `file:line: reason`; HTML and Markdown name each file once.
 */
import type { QuarantinedLine } from '../analysis/load.js';
import { plural } from './format.js';

export const QUARANTINE_SHOWN = 20;

export function quarantineTitle(quarantined: QuarantinedLine[]): string {
  const shown = quarantined.length > QUARANTINE_SHOWN ? `, first ${QUARANTINE_SHOWN} shown` : '';
  return `Quarantine (${plural(quarantined.length, 'line')}${shown})`;
}

/** `… and N more` when some were left out, else null. */
export function quarantineRest(quarantined: QuarantinedLine[], limit: number): string | null {
  return quarantined.length > limit ? `… and ${quarantined.length - limit} more (all of them in --json)` : null;
}

/** `file:line: reason`, one per line, then the rest note. */
export function quarantineLines(quarantined: QuarantinedLine[], limit: number): string[] {
  const lines = quarantined.slice(0, limit).map((q) => `${q.file}:${q.line}: ${q.reason}`);
  const rest = quarantineRest(quarantined, limit);
  return rest === null ? lines : [...lines, rest];
}

/** The shown lines grouped by file, files in order of first appearance. */
export function quarantineByFile(quarantined: QuarantinedLine[], limit: number): { file: string; lines: QuarantinedLine[] }[] {
  const groups = new Map<string, QuarantinedLine[]>();
  for (const q of quarantined.slice(0, limit)) {
    const group = groups.get(q.file);
    if (group) group.push(q);
    else groups.set(q.file, [q]);
  }
  return [...groups].map(([file, lines]) => ({ file, lines }));
}
