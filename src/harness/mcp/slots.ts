/**
 * A counting semaphore for connects (docs/harness-rules.md#mcp-limits): at most 3 local stdio
 * servers start at once (each is a process), at most 20 remote ones (each is
 * only a socket). Shared by every session in the process by default, since
 * the cost it bounds (processes starting) is the machine's, not a session's.
 */
import { LOCAL_CONNECT_SLOTS, REMOTE_CONNECT_SLOTS } from './config.js';

export class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.used++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.used--;
          this.waiting.shift()?.();
        });
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      if (this.used < this.size) return grant();
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  get inUse(): number {
    return this.used;
  }
}

export interface ConnectSlots {
  local: Slots;
  remote: Slots;
}

let shared: ConnectSlots | null = null;

export function sharedConnectSlots(): ConnectSlots {
  shared ??= { local: new Slots(LOCAL_CONNECT_SLOTS), remote: new Slots(REMOTE_CONNECT_SLOTS) };
  return shared;
}
