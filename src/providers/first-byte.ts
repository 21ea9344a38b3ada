/**
 * The first-byte timeout of one model call: how long to wait for the
 * response to start — the first stream event when streaming, the whole
 * response otherwise (a non-streamed body only arrives when generation is
 * done). An upstream that accepted the connection and then hangs is caught
 * here in seconds instead of by the minutes-long request timeout. The cut
 * attempt fails as a retryable `timeout`; a user abort stays an abort.
 */
import { ModelCallError } from './types.js';

export class FirstByteTimer {
  /** The signal to give the SDK: the user's, plus this timer's. */
  readonly signal: AbortSignal | undefined;
  private timer: NodeJS.Timeout | undefined;
  private fired = false;
  /** The listener on the user's signal, removed at done(); none without a timer (no closure per call then). */
  private forward: (() => void) | undefined;

  constructor(
    private readonly user: AbortSignal | undefined,
    private readonly ms: number | undefined,
  ) {
    if (ms === undefined) {
      this.signal = user;
      return;
    }
    const controller = new AbortController();
    const forward = () => controller.abort(user?.reason);
    if (user?.aborted) forward();
    else if (user) {
      user.addEventListener('abort', forward, { once: true });
      this.forward = forward;
    }
    this.timer = setTimeout(() => {
      this.fired = true;
      controller.abort(new Error(`no response within ${ms} ms`));
    }, ms);
    this.signal = controller.signal;
  }

  /** The response started: the timer no longer applies. */
  arrived(): void {
    clearTimeout(this.timer);
  }

  /** Runs part of the call; if the timer cut it, the failure is a retryable timeout whatever the SDK threw. */
  async run<T>(part: () => Promise<T>): Promise<T> {
    try {
      return await part();
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** What run() rejects with when its part failed with `error`, for callers that await the part themselves. */
  failure(error: unknown): unknown {
    return this.fired ? new ModelCallError('timeout', `no response within the first-byte timeout (${this.ms} ms)`, null, null, true) : error;
  }

  done(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    if (this.forward !== undefined) this.user?.removeEventListener('abort', this.forward);
  }
}
