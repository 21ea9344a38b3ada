/**
 * How every renderer names its inputs at the top of a report: each file with
 * its line count and run ids, an empty file said to be empty. Terminal,
 * Markdown and HTML show the first INPUTS_SHOWN files; --json has them all.
 */
import type { InputFile } from '../analysis/report-model.js';
import { plural } from './format.js';

export const INPUTS_SHOWN = 20;
const RUN_IDS_SHOWN = 3;

/** `4 lines, run r1` / `8 lines, runs r1, r2` / `empty (0 lines)` / `3 lines, no valid event`. */
export function inputSummary(input: InputFile): string {
  if (input.empty) return 'empty (0 lines)';
  const ids = input.run_ids;
  if (ids.length === 0) return `${plural(input.lines, 'line')}, no valid event`;
  const shown = ids.slice(0, RUN_IDS_SHOWN).join(', ');
  const more = ids.length > RUN_IDS_SHOWN ? ` and ${ids.length - RUN_IDS_SHOWN} more` : '';
  return `${plural(input.lines, 'line')}, ${ids.length === 1 ? 'run' : 'runs'} ${shown}${more}`;
}

/** `Inputs (2 files)`. */
export function inputsTitle(inputs: InputFile[]): string {
  return `Inputs (${plural(inputs.length, 'file')})`;
}

/** The files left out of the header, or null. */
export function inputsRest(inputs: InputFile[]): string | null {
  return inputs.length > INPUTS_SHOWN ? `… and ${plural(inputs.length - INPUTS_SHOWN, 'more file')} (all of them in --json)` : null;
}
