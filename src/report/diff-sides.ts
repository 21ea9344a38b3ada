/**
 * What each side of a diff read, stated before any change is: its input
 * files and its reconciliation. Also the one-line refusal when a side holds
 * no sessions (an empty or garbage candidate must never pass a regression gate).
 */
import type { DiffSide } from '../analysis/diff.js';
import type { Analysis } from '../analysis/report-model.js';
import { reconciliation } from './findings.js';
import { inputSummary } from './input-header.js';

const FILES_SHOWN = 5;
export type SideName = 'base' | 'candidate';

/** `base: a.jsonl: 12 lines, run r1` (or `base: 3 files` and one line each), then the side's reconciliation. */
export function diffSideLines(name: SideName, analysis: Pick<Analysis, 'load' | 'inputs'>): string[] {
  const { inputs } = analysis;
  const only = inputs.length === 1 ? inputs[0] : undefined;
  const out = only ? [`${name}: ${only.path}: ${inputSummary(only)}`] : [`${name}: ${inputs.length} files`];
  if (!only) for (const i of inputs.slice(0, FILES_SHOWN)) out.push(`  ${i.path}: ${inputSummary(i)}`);
  if (inputs.length > FILES_SHOWN) out.push(`  … and ${inputs.length - FILES_SHOWN} more (all of them in --json)`);
  out.push(`  ${reconciliation(analysis)}`);
  return out;
}

/** Null when both sides hold sessions; else why the diff is refused. */
export function diffRefusal(sides: Record<SideName, DiffSide>): string | null {
  const empty = (['base', 'candidate'] as const).filter((name) => sides[name].sessions === 0);
  if (empty.length === 0) return null;
  const why = empty.map((name) => {
    const s = sides[name];
    const files = s.inputs.length === 1 ? (s.inputs[0]?.path ?? '') : `${s.inputs.length} files`;
    return `the ${name} (${files}) has no sessions: ${s.lines_read} lines read, ${s.events_used} events used, ${s.lines_quarantined} quarantined`;
  });
  return `diff refused: ${why.join('; ')}; nothing to compare`;
}
