import { ENDING_SIGNALS, type EndingSignal } from '../../src/cli/stop-on-signal.js';

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * How the parent sees a CLI command that a signal ended, once it has cleaned up: exit 128 + the signal's number,
 * but SIGHUP by the signal itself (src/cli/stop-on-signal.ts, exitForSignal; a shell shows 129 either way).
 */
export function endedBy(signal: EndingSignal): Ended {
  return signal === 'SIGHUP' ? { code: null, signal: 'SIGHUP' } : { code: ENDING_SIGNALS[signal], signal: null };
}

/** Resolves with how `child` ended. */
export function closeOf(child: { once(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown }): Promise<Ended> {
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
}
