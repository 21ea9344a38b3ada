/**
 * How renderers read a defense's zero-trigger triage without knowing every
 * class: `firing` and `disarmed` need no action, `unwired` is broken, so is
 * `unknown` on an armed defense (armed, not implemented), and any other class
 * (`unreached`, and whatever the analysis adds later) needs a look, unless
 * no session armed the defense. The analysis's evidence text, when the row
 * carries one, is shown as it comes.
 */
import type { Row } from '../analysis/duck.js';

/** Classes that need no action. */
const SETTLED = new Set(['firing', 'disarmed']);

export type TriageLevel = 'error' | 'warning' | null;

export function triageLevel(triage: unknown, row?: Row): TriageLevel {
  if (typeof triage !== 'string' || SETTLED.has(triage)) return null;
  if (triage === 'unwired') return 'error';
  // a class on a defense no session armed (e.g. one the trace cannot say is implemented) asks nothing of anyone
  if (typeof row?.sessions_armed === 'number' && row.sessions_armed === 0) return null;
  // armed but not implemented: a name with no code behind it
  return triage === 'unknown' ? 'error' : 'warning';
}

/** Columns that may carry a triage's evidence, first match wins. */
const EVIDENCE_COLUMNS = ['evidence', 'triage_evidence', 'triage_reason'];

export function triageEvidence(row: Row): string | null {
  for (const column of EVIDENCE_COLUMNS) {
    const value = row[column];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}
