/**
 * `--format` for the commands that read traces (report, query, diff,
 * compact): inputs of another format are imported on the fly
 * (src/importers/sources.ts); without it, each file's format is recognised
 * by content. The importers are loaded only when a command runs.
 */
import { Option } from 'commander';
import type { SourceResolver } from '../analysis/analyze.js';
import { FORMAT_NAMES, type FormatName } from '../importers/types.js';
import { bytesDone, progressLine, type CliIo } from './io.js';

export function formatOption(): Option {
  return new Option('--format <name>', 'read every input as this format and import it (default: faultline traces, other formats recognised by content)').choices([...FORMAT_NAMES]);
}

/** Only imports this big get a progress line: small ones finish before it would be read. */
const PROGRESS_MIN_BYTES = 16 * 1024 * 1024;

/** A self-overwriting stderr line while importing, on a terminal only. */
export function importProgress(io: CliIo): ((p: { bytesRead: number; bytesTotal: number; events: number }) => void) | undefined {
  return progressLine(io, PROGRESS_MIN_BYTES, (p: { bytesRead: number; bytesTotal: number; events: number }) => `importing: ${bytesDone(p)}, ${p.events} events`);
}

/** The resolver for AnalyzeOptions.sources. */
export async function traceSources(io: CliIo, format: FormatName | undefined): Promise<SourceResolver> {
  const { importingSources } = await import('../importers/sources.js');
  return importingSources({ format, onProgress: importProgress(io) });
}
