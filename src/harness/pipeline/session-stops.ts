/**
 * One abort listener on the session signal per turn instead of one per
 * running call. executeTool registers each running call here; a user abort
 * stops every registered call with cause `aborted`, exactly what a listener
 * per call did. Why: adding and removing a listener on the shared session
 * signal cost about 1 µs per call, and with more than ten calls running at
 * once (FAULTLINE_MAX_TOOL_CONCURRENCY > 10) Node warns of a possible
 * listener leak on that signal. The listener is added when the first call of
 * the turn starts and removed when the turn's calls are done (`close`).
 */
export interface Stoppable {
  stop(reason: 'aborted'): void;
}

export class SessionStops {
  private readonly running = new Set<Stoppable>();
  private listening = false;

  constructor(readonly signal: AbortSignal) {}

  add(call: Stoppable): void {
    if (!this.listening) {
      this.signal.addEventListener('abort', this);
      this.listening = true;
    }
    this.running.add(call);
  }

  delete(call: Stoppable): void {
    this.running.delete(call);
  }

  handleEvent(): void {
    for (const call of [...this.running]) call.stop('aborted');
  }

  /** The turn's calls are done: drop the listener. */
  close(): void {
    if (this.listening) this.signal.removeEventListener('abort', this);
    this.listening = false;
    this.running.clear();
  }
}
