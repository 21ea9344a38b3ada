/**
 * Flush open sinks on SIGINT/SIGTERM/SIGHUP, then let the signal do what it
 * would have done. One process-wide handler serves every open sink.
 */
const flushers = new Set<() => void>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

function onSignal(signal: NodeJS.Signals): void {
  for (const flush of flushers) {
    try {
      flush();
    } catch {
      // keep flushing the others
    }
  }
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  installed = false;
  // Re-raise so the default behaviour (exit with 128+n) or other handlers still apply.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

export function installSignalFlush(flush: () => void): () => void {
  flushers.add(flush);
  if (!installed) {
    for (const s of SIGNALS) process.on(s, onSignal);
    installed = true;
  }
  return () => {
    flushers.delete(flush);
    if (flushers.size === 0 && installed) {
      for (const s of SIGNALS) process.removeListener(s, onSignal);
      installed = false;
    }
  };
}
