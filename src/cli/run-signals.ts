/**
 * How `faultline run` ends on a signal. Ctrl-C (SIGINT): the first stops starting tasks and lets the running ones
 * finish; the second aborts them; either way the run ends with run_end and its workspaces removed; a third exits at
 * once. SIGTERM (a service manager, `timeout`, a cancelled CI job) asks to end now: it aborts at once, as a second
 * Ctrl-C does, so the sessions end as aborted and their workspaces are removed (dying of the signal's default left
 * every running task's workspace behind, in memory when it was on /dev/shm); a second SIGTERM exits at once. SIGHUP
 * (the terminal or the SSH session the run was started from went away) is handled as SIGTERM.
 */
import { plural } from '../report/plural.js';
import type { CliIo } from './io.js';
import { ENDING_SIGNALS, exitForSignal, onEndingSignals, signalWords, type EndingSignal } from './stop-on-signal.js';

export interface RunSignals {
  /** Aborted by the first Ctrl-C or a SIGTERM or SIGHUP: start no more tasks. */
  readonly stop: AbortSignal;
  /** Aborted by the second Ctrl-C or a SIGTERM or SIGHUP: abort the running tasks. */
  readonly abort: AbortSignal;
  /** The exit code the run ends with when a signal ended it (130 SIGINT, 143 SIGTERM, 129 SIGHUP: 128 + the signal), else null. */
  exitCode(): number | null;
  /** Stops listening (the run is over). */
  remove(): void;
}

/**
 * Listens for SIGINT, SIGTERM and SIGHUP for one run. `running()` is the number of tasks running (for the messages);
 * `closeTrace` flushes and closes the trace before an immediate exit.
 */
export function listenForRunSignals(io: CliIo, running: () => number, closeTrace: () => void): RunSignals {
  const stop = new AbortController();
  const abort = new AbortController();
  let interrupts = 0;
  let terminated: EndingSignal | null = null;
  const onSigint = () => {
    interrupts++;
    const lead = io.isTTY ? '\n' : '';
    if (interrupts === 1) {
      io.stderr(`${lead}faultline: stopping: finishing ${plural(running(), 'running task')}, Ctrl-C again to abort\n`);
      stop.abort('sigint');
    } else if (interrupts === 2) {
      io.stderr(`${lead}faultline: aborting ${plural(running(), 'running task')}; their sessions end as aborted and their workspaces are removed\n`);
      abort.abort('sigint');
    } else {
      io.stderr(`${lead}faultline: exiting at once; the trace may lack session_end and run_end\n`);
      closeTrace();
      process.exit(130);
    }
  };
  const onTerminate = (signal: EndingSignal) => {
    if (terminated !== null) {
      closeTrace();
      exitForSignal(terminated);
    }
    terminated = signal;
    io.stderr(`faultline: ${signalWords(signal)}: aborting ${plural(running(), 'running task')}; their sessions end as aborted and their workspaces are removed\n`);
    stop.abort(signal.toLowerCase());
    abort.abort(signal.toLowerCase());
  };
  const remove = onEndingSignals((signal) => (signal === 'SIGINT' ? onSigint() : onTerminate(signal)));
  return {
    stop: stop.signal,
    abort: abort.signal,
    exitCode: () => (terminated !== null ? ENDING_SIGNALS[terminated] : interrupts > 0 ? ENDING_SIGNALS.SIGINT : null),
    remove,
  };
}
