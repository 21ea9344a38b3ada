/**
 * The loopback mount as a Model: one process-wide loopback server, started
 * lazily, a session per call, the REAL adapter pointed at it. Used by the suite
 * runner's mock source, so every fault (resets and cut streams included) runs
 * over real sockets.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Model } from '../providers/types.js';
import { startLoopbackServer, type LoopbackServer, type LoopbackSessionHandle } from './loopback-server.js';
import type { ModelScript } from './script.js';
import type { Wire } from './wire-errors.js';
import { loadMockAdapter } from './wire-adapter.js';

/** The server's host, for a caller that loaded only this module (the suite runner's connection pool for it). */
export { LOOPBACK_HOST } from './loopback-server.js';

let shared: Promise<LoopbackServer> | null = null;

/** The process-wide loopback server (port chosen by the OS). */
export function sharedLoopbackServer(): Promise<LoopbackServer> {
  shared ??= startLoopbackServer();
  return shared;
}

export async function stopSharedLoopbackServer(): Promise<void> {
  const server = shared;
  shared = null;
  if (server) await (await server).close();
}

export interface LoopbackModelOptions {
  wire: Wire;
  stream?: boolean;
  model?: string;
  /** A given server instead of the shared one. */
  server?: LoopbackServer;
  timeoutMs?: number;
  /** Strict tool use (the wire's strict schema subset plus `strict: true`). */
  strictTools?: boolean;
  streamIdleTimeoutMs?: number;
  firstByteTimeoutMs?: number;
  promptCache?: boolean;
  /** Where the SDK client gets its connections to the server (default fetch's global pool): see AdapterOptions.dispatcher. */
  dispatcher?: Dispatcher;
}

export async function loopbackModel(
  script: z.input<typeof ModelScript>,
  options: LoopbackModelOptions,
): Promise<{ model: Model; session: LoopbackSessionHandle }> {
  // Only the wire's adapter and SDK are loaded (wire-adapter.ts says why).
  const adapter = await loadMockAdapter(options.wire);
  const server = options.server ?? (await sharedLoopbackServer());
  const session = server.register(script, { wire: options.wire });
  // The root base URL and the session header: every session of a wire shares one SDK client.
  const model = adapter({ baseURL: session.rootBaseURL, headers: session.headers, model: options.model, stream: options.stream, timeoutMs: options.timeoutMs, streamIdleTimeoutMs: options.streamIdleTimeoutMs, firstByteTimeoutMs: options.firstByteTimeoutMs, promptCache: options.promptCache, strictTools: options.strictTools, ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}) });
  return { model, session };
}
