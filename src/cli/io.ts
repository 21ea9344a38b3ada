/** What a command needs from the outside world, injectable so `run(argv, io)` is testable without a subprocess. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stdout is an interactive terminal (colour, progress bar). */
  isTTY: boolean;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
  };
}

/** An error meant for the user at the CLI boundary: printed without a stack, with an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
    readonly code = 'CLI_ERROR',
  ) {
    super(message);
    this.name = 'CliError';
  }
}
