/**
 * `--format` for the commands that read traces (report, query, diff,
 * compact): inputs of another format are imported on the fly
 * (src/importers/sources.ts); without it, each file's format is recognised
 * by content. The importers are loaded only when a command runs.
 */
import { Option } from 'commander';
import type { SourceResolver } from '../analysis/analyze.js';
import { FORMAT_NAMES, type FormatName } from '../importers/types.js';
import type { CliIo } from './io.js';

export function formatOption(): Option {
  return new Option('--format <name>', 'read every input as this format and import it (default: faultline traces, other formats recognised by content)').choices([...FORMAT_NAMES]);
}

/** Only imports this big get a progress line: small ones finish before it would be read. */
const PROGRESS_MIN_BYTES = 16 * 1024 * 1024;

/** A self-overwriting stderr line while importing, on a terminal only (at most four updates a second). */
export function importProgress(io: CliIo): ((p: { bytesRead: number; bytesTotal: number; events: number }) => void) | undefined {
  if (!io.stderrIsTTY) return undefined;
  let last = 0;
  return ({ bytesRead, bytesTotal, events }) => {
    if (bytesTotal < PROGRESS_MIN_BYTES) return;
    const done = bytesRead >= bytesTotal;
    const now = Date.now();
    if (!done && now - last < 250) return;
    last = now;
    const gb = (n: number) => (n / 1e9).toFixed(2);
    io.stderr(done ? '\r\x1b[K' : `\rimporting: ${gb(bytesRead)} / ${gb(bytesTotal)} GB (${Math.floor((100 * bytesRead) / bytesTotal)}%), ${events} events\x1b[K`);
  };
}

/** The resolver for AnalyzeOptions.sources. */
export async function traceSources(io: CliIo, format: FormatName | undefined): Promise<SourceResolver> {
  const { importingSources } = await import('../importers/sources.js');
  return importingSources({ format, onProgress: importProgress(io) });
}
