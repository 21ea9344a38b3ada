/**
 * The commander program. Commands are thin: they parse options and call the
 * layers below. Each command lives in src/cli/commands/ and registers itself.
 */
import { Command, CommanderError } from 'commander';
import { FAULTLINE_VERSION } from '../version.js';
import { CliError, processIo, type CliIo } from './io.js';
import { COMMANDS } from './commands/index.js';
import type { CommandResult } from './command-result.js';

// In command-result.ts so the commands (src/cli/commands/) need not import this file, which imports them.
export type { CommandResult } from './command-result.js';

export function buildProgram(io: CliIo, result: CommandResult): Command {
  const program = new Command('faultline')
    .description('A workbench for LLM agent harnesses: scripted suites, JSONL traces, DuckDB reports, fault scenarios.')
    .version(FAULTLINE_VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const register of COMMANDS) register(program, io, result);
  return program;
}

/** Runs the CLI and returns the exit code; never calls process.exit itself. */
export async function run(argv: string[], io: CliIo = processIo()): Promise<number> {
  const result: CommandResult = { exitCode: 0 };
  const program = buildProgram(io, result);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return result.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help, `help` and --version end here with exit code 0; every other commander error (a missing
      // argument, an unknown option or command, a bad choice, a bare `faultline`) is bad usage: exit 2,
      // as documented. commander has already printed its one-line message and the help hint.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CliError) {
      io.stderr(`faultline: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`faultline: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
}
