/**
 * Findings about the inputs themselves: no events at all, empty files (left
 * out, never silently merged), and two copies of one run (every figure would
 * count its events twice).
 */
import type { Analysis } from '../analysis/report-model.js';
import type { Finding } from './finding.js';
import { plural } from './plural.js';
import { README_REFS } from './readme-refs.js';

const FILES_NAMED = 5;

function named(paths: string[]): string {
  const rest = paths.length > FILES_NAMED ? ` and ${paths.length - FILES_NAMED} more` : '';
  return paths.slice(0, FILES_NAMED).join(', ') + rest;
}

export function inputFindings(analysis: Pick<Analysis, 'load' | 'inputs'>): Finding[] {
  const out: Finding[] = [];
  const see = README_REFS.reports;
  const { load, inputs } = analysis;
  if (load.eventsUsed === 0) {
    const files = inputs.length === 1 ? `the input file (${plural(load.linesRead, 'line')}) holds` : `the ${inputs.length} input files (${plural(load.linesRead, 'line')}) hold`;
    out.push({ level: 'error', see, text: `no events: ${files} no valid event, so every figure below is over nothing` });
  }
  const empty = inputs.filter((i) => i.empty).map((i) => i.path);
  if (empty.length > 0) out.push({ level: 'warning', see, text: `${plural(empty.length, 'empty input file')} (no lines; a run that failed before writing?): ${named(empty)}` });
  for (const copy of load.copiedRuns) {
    out.push({ level: 'warning', see, text: `run ${copy.run_id} is in ${copy.files.length} input files with the same events (${named(copy.files)}): two copies of one run? every figure counts its events twice` });
  }
  return out;
}
