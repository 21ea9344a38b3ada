/** Suite loading at the CLI boundary: a bad suite becomes a usage error (exit 2) listing every `file:line: reason`. */
import { loadSuites, SuiteError, type LoadedTask } from '../suites/load-suite.js';
import { CliError } from './io.js';

export function loadSuitesForCli(paths: string[]): LoadedTask[] {
  try {
    return loadSuites(paths);
  } catch (error) {
    if (error instanceof SuiteError) throw new CliError(`invalid suite:\n${error.message}`);
    throw error;
  }
}
