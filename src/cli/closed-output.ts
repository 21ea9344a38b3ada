/**
 * A reader that goes away closes the CLI's stdout or stderr: `faultline run suites | head -3`, a CI step that
 * stops reading a log, a pager quit early. Node then fails the next write with EPIPE, delivered as an 'error'
 * event on the stream, and that event unhandled ended the process wherever it was: in the middle of a run, its
 * sessions' workspaces left behind and the trace without run_end. A terminal that goes away (its window closed,
 * the SSH connection lost) is the same for a stream on it: after the hang-up (SIGHUP, which the commands handle
 * as SIGTERM) every write to it fails with EIO, the first being the line that says the run is being stopped.
 *
 * A reader that left wants no more output, but the rest of the command's work still counts: the trace, the
 * files it writes, the exit code, a run's clean-up. So a closed output ends only the printing: later writes to
 * that stream go nowhere (a destroyed stream drops them), and the command finishes and exits as it would have.
 * Any other write error stays fatal, as before.
 * Only bin.ts calls this: a library user's process streams are theirs.
 */

export function keepRunningWhenOutputCloses(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && !(error.code === 'EIO' && stream.isTTY)) throw error;
    });
  }
}

