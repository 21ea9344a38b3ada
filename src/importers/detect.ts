/**
 * Detection by content: which format a file is, from its first bytes. A
 * faultline trace is recognised first (a line with `v` and `event`), then
 * each importer's own check in a fixed order; a file no check claims is
 * left to the native loader, which quarantines its lines with their reasons.
 */
import { IMPORTERS } from './registry.js';
import type { FormatName, Sample } from './types.js';

export { readSample } from './sample.js';

function isNative(sample: Sample): boolean {
  return sample.lines.some((l) => typeof l === 'object' && l !== null && 'event' in l && 'v' in l && 'run_id' in l);
}

/** `faultline` for a native trace, a format name, or null when nothing claims the file. */
export function detectFormat(sample: Sample): FormatName | 'faultline' | null {
  if (isNative(sample)) return 'faultline';
  for (const importer of Object.values(IMPORTERS)) if (importer.detect(sample)) return importer.name;
  return null;
}
