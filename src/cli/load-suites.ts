/**
 * Suite loading at the CLI boundary: a bad suite becomes a usage error (exit 2)
 * naming every `file:line:col: reason` (one line when there is one problem);
 * warnings go to stderr, one a line.
 */
import { loadSuiteFile, loadSuites, SuiteError, type LoadedSuite, type LoadedTask } from '../suites/load-suite.js';
import { CliError, type CliIo } from './io.js';

export function loadSuitesForCli(paths: string[], io: CliIo): LoadedTask[] {
  return asUsageError(() => loadSuites(paths, { onWarning: (warning) => warn(io, warning) }));
}

/** One suite file (`mock-server --suite`). */
export function loadSuiteFileForCli(file: string, io: CliIo): LoadedSuite {
  const loaded = asUsageError(() => loadSuiteFile(file));
  for (const warning of loaded.warnings) warn(io, warning);
  return loaded;
}

function warn(io: CliIo, warning: string): void {
  io.stderr(`faultline: warning: ${warning}\n`);
}

function asUsageError<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof SuiteError)) throw error;
    const { problems } = error;
    throw new CliError(problems.length === 1 ? `invalid suite: ${problems[0]}` : `invalid suite (${problems.length} problems):\n${problems.join('\n')}`);
  }
}
