/**
 * Library errors the user caused become CliErrors (exit 2) without a stack.
 * Actions import this lazily: analysis/inputs pulls in tinyglobby, which
 * `--help`, `--version` and `validate` do not need.
 */
import { InputError } from '../analysis/inputs.js';
import { CliError } from './io.js';

export function asCliError(error: unknown): never {
  if (error instanceof InputError) throw new CliError(error.message);
  throw error;
}
