/**
 * How a command that runs sessions but has no "finish the running ones" stage (`lab`, `verify-defense`) ends on a
 * signal: the first SIGINT (Ctrl-C), SIGTERM (`timeout`, a cancelled CI job) or SIGHUP (the terminal or the SSH
 * session it ran in went away) aborts its sessions, so their processes are stopped and their workspaces removed
 * before it exits 128 + the signal; the listener is gone after it, so a second signal ends the process at once.
 * Dying of the first signal's default left them behind. (`run` has two stages for Ctrl-C: run-signals.ts.)
 */
import type { CliIo } from './io.js';

/** The signals that ask a command to end, each with the exit code it then ends with (128 + the signal's number). */
export const ENDING_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type EndingSignal = keyof typeof ENDING_SIGNALS;
const ENDING = Object.keys(ENDING_SIGNALS) as EndingSignal[];

/** How the stderr line names the signal. */
export function signalWords(signal: EndingSignal): string {
  return signal === 'SIGINT' ? 'interrupted' : signal === 'SIGHUP' ? 'hung up (SIGHUP)' : 'terminated (SIGTERM)';
}

let hungUp = false;

/** Calls `listener` on each ending signal; returns what stops listening. */
export function onEndingSignals(listener: (signal: EndingSignal) => void): () => void {
  const heard = (signal: EndingSignal) => {
    if (signal === 'SIGHUP') hungUp = true;
    listener(signal);
  };
  for (const signal of ENDING) process.on(signal, heard);
  return () => {
    for (const signal of ENDING) process.removeListener(signal, heard);
  };
}

/** Whether a command of this process was ended by SIGHUP (bin.ts then ends the process by it: exitForSignal). */
export function hungUpEarlier(): boolean {
  return hungUp;
}

/**
 * Ends the process as `signal` asks, now: exit 128 + its number, but SIGHUP by the signal itself. After a hang-up
 * the terminal is gone, and a normal exit makes Node restore the terminal's settings, which fails on a hung-up
 * terminal (EIO): Node 20 asserts that it cannot and aborts (SIGABRT, a core dump) after the command's clean-up.
 * Dying of the signal skips that, and a shell sees the same status, 129.
 */
export function exitForSignal(signal: EndingSignal): never {
  if (signal === 'SIGHUP') {
    process.removeAllListeners('SIGHUP');
    process.kill(process.pid, 'SIGHUP');
  }
  process.exit(ENDING_SIGNALS[signal]);
}

export interface SignalStop {
  /** Aborted by the first ending signal (its reason is the signal's name). */
  readonly signal: AbortSignal;
  /** 130 after SIGINT, 143 after SIGTERM, 129 after SIGHUP (bin.ts then ends the process by the signal), else null. */
  exitCode(): number | null;
  remove(): void;
}

/** `prefix` starts the line said on stderr (`faultline lab`); `doing` says what the command does about it. */
export function stopOnSignal(io: CliIo, prefix: string, doing: string): SignalStop {
  const abort = new AbortController();
  const remove = onEndingSignals((signal) => {
    remove();
    io.stderr(`${io.isTTY ? '\n' : ''}${prefix}: ${signalWords(signal)}: ${doing}\n`);
    abort.abort(signal);
  });
  return {
    signal: abort.signal,
    exitCode: () => (abort.signal.aborted ? ENDING_SIGNALS[abort.signal.reason as EndingSignal] : null),
    remove,
  };
}
