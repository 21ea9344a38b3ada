/**
 * Suite loading at the CLI boundary: a bad suite becomes a usage error (exit 2)
 * naming every `file:line:col: reason` (one line when there is one problem);
 * warnings go to stderr, one a line.
 */
import { loadSuiteFile, loadSuites, SuiteError, type LoadedSuite, type LoadedTask } from '../suites/load-suite.js';
import { CliError, type CliIo } from './io.js';

export function loadSuitesForCli(paths: string[], io: CliIo, onTasksRead?: (tasksSoFar: number) => void): LoadedTask[] {
  return asUsageError(() => loadSuites(paths, { onWarning: (warning) => warn(io, warning), ...(onTasksRead ? { onTasksRead } : {}) }));
}

/** The tasks' defense and hook modules, loaded now: one that cannot load is a usage error at its `defenses:` / `hooks:` line. */
export async function checkModulesForCli(tasks: LoadedTask[]): Promise<void> {
  // Nothing to load: the checker (and the harness's module loaders it imports) stays unloaded on this thread.
  if (!tasks.some((t) => (t.defenses?.length ?? 0) > 0 || t.hooks !== undefined)) return;
  const { checkSuiteModules } = await import('../suites/module-check.js');
  const problems = await checkSuiteModules(tasks);
  if (problems.length > 0) throw new SuiteErrorAsCli(problems);
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
    throw new SuiteErrorAsCli(error.problems);
  }
}

class SuiteErrorAsCli extends CliError {
  constructor(problems: readonly string[]) {
    super(problems.length === 1 ? `invalid suite: ${problems[0]}` : `invalid suite (${problems.length} problems):\n${problems.join('\n')}`);
  }
}
