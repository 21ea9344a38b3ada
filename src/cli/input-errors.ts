/**
 * Library errors the user caused (a path that names nothing, a file that is
 * not what its name says) become CliErrors (exit 2) without a stack.
 * Actions import this lazily: analysis/inputs pulls in tinyglobby, which
 * `--help` and `--version` do not need.
 */
import { InputError } from '../analysis/inputs.js';
import { TraceFileError } from '../events/trace-lines.js';
import { CliError } from './io.js';

export function asCliError(error: unknown): never {
  if (error instanceof InputError || error instanceof TraceFileError) throw new CliError(error.message);
  throw error;
}
