/**
 * How a command that runs sessions but has no "finish the running ones" stage (`lab`, `verify-defense`) ends on a
 * signal: the first SIGINT (Ctrl-C) or SIGTERM (`timeout`, a cancelled CI job) aborts its sessions, so their
 * processes are stopped and their workspaces removed before it exits 128 + the signal; the listener is gone after
 * it, so a second signal ends the process at once. Dying of the first signal's default left them behind.
 * (`run` has two stages for Ctrl-C: run-signals.ts.)
 */
import type { CliIo } from './io.js';

export interface SignalStop {
  /** Aborted by the first SIGINT or SIGTERM (its reason is the signal's name). */
  readonly signal: AbortSignal;
  /** 130 after SIGINT, 143 after SIGTERM, else null. */
  exitCode(): number | null;
  remove(): void;
}

/** `prefix` starts the line said on stderr (`faultline lab`); `doing` says what the command does about it. */
export function stopOnSignal(io: CliIo, prefix: string, doing: string): SignalStop {
  const abort = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    remove();
    io.stderr(`${io.isTTY ? '\n' : ''}${prefix}: ${signal === 'SIGINT' ? 'interrupted' : 'terminated (SIGTERM)'}: ${doing}\n`);
    abort.abort(signal);
  };
  const remove = () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: abort.signal,
    exitCode: () => (abort.signal.aborted ? (abort.signal.reason === 'SIGTERM' ? 143 : 130) : null),
    remove,
  };
}
