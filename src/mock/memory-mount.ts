/**
 * The in-process mount: the mock router behind a `fetch` (memory-fetch.ts)
 * instead of a socket. Sessions get base URLs under MEMORY_ORIGIN, a host no
 * resolver answers, so a client given the base URL without the fetch fails
 * loudly instead of reaching anything.
 */
import { memoryFetch } from './memory-fetch.js';
import { MockRouter, type MockSessionHandle, type RegisterOptions, type RouterOptions } from './mock-router.js';
import type { ScriptInput } from './script.js';
import type { MockSession } from './session.js';

export const MEMORY_ORIGIN = 'http://memory.faultline.invalid';

export interface MemoryMount {
  readonly origin: string;
  /** Give it to the SDK client (`fetch` option): it answers MEMORY_ORIGIN from the router. */
  readonly fetch: typeof fetch;
  register(script: ScriptInput, options: RegisterOptions): MockSessionHandle;
  /** The default session (when made with a script): one for every wire. */
  defaultSession(): MockSession | null;
  /** Sessions registered and not closed. */
  openSessions(): number;
}

export function createMemoryMount(options: RouterOptions = {}): MemoryMount {
  // `i` ids: a trace's session ids say the in-process transport answered (`l` for the loopback server).
  const router = new MockRouter('i', options);
  return {
    origin: MEMORY_ORIGIN,
    fetch: memoryFetch(router, MEMORY_ORIGIN),
    register: (script, registerOptions) => router.register(MEMORY_ORIGIN, script, registerOptions),
    defaultSession: () => router.defaultSession,
    openSessions: () => router.size,
  };
}
