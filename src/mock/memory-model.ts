/**
 * The in-process mount as a Model: one process-wide memory mount, a session
 * per call, the REAL adapter given the mount's fetch. The suite runner's
 * default for the mock (loopback-model.ts is the HTTP one).
 */
import { mockAdapter } from './mock-adapter.js';
import { createMemoryMount, type MemoryMount } from './memory-mount.js';
import type { MockSessionHandle } from './mock-router.js';
import type { LoopbackModelOptions } from './loopback-model.js';
import type { ScriptInput } from './script.js';
import type { Model } from '../providers/types.js';

let shared: MemoryMount | null = null;

/** The process-wide memory mount (it holds no socket, so it is never stopped; closed sessions leave it). */
export function sharedMemoryMount(): MemoryMount {
  shared ??= createMemoryMount();
  return shared;
}

/** `script`: as written, or `{ parsed }` when it is ModelScript's output already (a loaded suite's task). */
export function memoryModel(script: ScriptInput, options: Omit<LoopbackModelOptions, 'server'> & { mount?: MemoryMount }): { model: Model; session: MockSessionHandle } {
  const mount = options.mount ?? sharedMemoryMount();
  const session = mount.register(script, { wire: options.wire });
  // The root base URL, the session header and one fetch: every session of a wire shares one SDK client, as on HTTP.
  const model = mockAdapter({ wire: options.wire, baseURL: session.rootBaseURL, headers: session.headers, fetch: mount.fetch, fetchFollowsSignal: true, model: options.model, stream: options.stream, timeoutMs: options.timeoutMs, streamIdleTimeoutMs: options.streamIdleTimeoutMs, firstByteTimeoutMs: options.firstByteTimeoutMs, promptCache: options.promptCache, strictTools: options.strictTools });
  return { model, session };
}
