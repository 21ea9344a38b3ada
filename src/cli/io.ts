/** What a command needs from the outside world, injectable so `run(argv, io)` is testable without a subprocess. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stdout is an interactive terminal (colour, progress bar). */
  isTTY: boolean;
  /** True when stderr is an interactive terminal (progress of long reads goes there). */
  stderrIsTTY?: boolean;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
  };
}

/** Only inputs this big get a progress line: small ones finish before it would be read. */
const PROGRESS_MIN_BYTES = 64 * 1024 * 1024;

/**
 * A progress callback for reading trace files: one self-overwriting stderr
 * line on a terminal, at most four updates a second, erased when done;
 * nothing at all when stderr is not a terminal.
 */
export function readProgress(io: CliIo): ((p: { bytesRead: number; bytesTotal: number }) => void) | undefined {
  return progressLine(io, PROGRESS_MIN_BYTES, (p) => `reading traces: ${bytesDone(p)}`);
}

/** `0.42 / 1.02 GB (41%)`. */
export function bytesDone({ bytesRead, bytesTotal }: { bytesRead: number; bytesTotal: number }): string {
  const gb = (n: number) => (n / 1e9).toFixed(2);
  return `${gb(bytesRead)} / ${gb(bytesTotal)} GB (${Math.floor((100 * bytesRead) / bytesTotal)}%)`;
}

/** The progress line itself, for inputs of at least `minBytes`: `text` says where the work is. */
export function progressLine<P extends { bytesRead: number; bytesTotal: number }>(io: CliIo, minBytes: number, text: (p: P) => string): ((p: P) => void) | undefined {
  if (!io.stderrIsTTY) return undefined;
  let last = 0;
  return (p) => {
    if (p.bytesTotal < minBytes) return;
    const done = p.bytesRead >= p.bytesTotal;
    const now = Date.now();
    if (!done && now - last < 250) return;
    last = now;
    io.stderr(done ? '\r\x1b[K' : `\r${text(p)}\x1b[K`);
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
