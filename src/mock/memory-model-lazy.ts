/**
 * The in-process mount as a Model, loading only the adapter (and SDK) of the
 * session's wire: what the suite runner's mock source uses, so a run on the
 * Anthropic wire does not load the `openai` SDK. memory-model.ts is the same
 * with every adapter loaded up front (synchronous, for callers that need it).
 */
import { createMemoryMount, type MemoryMount } from './memory-mount.js';
import type { MockSessionHandle } from './mock-router.js';
import type { LoopbackModelOptions } from './loopback-model.js';
import type { ScriptInput } from './script.js';
import type { Model } from '../providers/types.js';
import { loadedMockAdapter, loadMockAdapter, type WireAdapter } from './wire-adapter.js';

let shared: MemoryMount | null = null;

/** The process-wide memory mount (it holds no socket, so it is never stopped; closed sessions leave it). */
export function sharedMemoryMount(): MemoryMount {
  shared ??= createMemoryMount();
  return shared;
}

export type MemoryModelOptions = Omit<LoopbackModelOptions, 'server'> & { mount?: MemoryMount };

/** A session on the memory mount and the model for it, built by `adapter` (the wire's). */
export function memoryModelWith(script: ScriptInput, options: MemoryModelOptions, adapter: WireAdapter): { model: Model; session: MockSessionHandle } {
  const mount = options.mount ?? sharedMemoryMount();
  const session = mount.register(script, { wire: options.wire });
  // The root base URL, the session header and one fetch: every session of a wire shares one SDK client, as on HTTP.
  const model = adapter({ baseURL: session.rootBaseURL, headers: session.headers, fetch: mount.fetch, fetchFollowsSignal: true, model: options.model, stream: options.stream, timeoutMs: options.timeoutMs, streamIdleTimeoutMs: options.streamIdleTimeoutMs, firstByteTimeoutMs: options.firstByteTimeoutMs, promptCache: options.promptCache, strictTools: options.strictTools });
  return { model, session };
}

/** memoryModel, loading the wire's adapter first (once per process: import() keeps the module). */
export async function openMemoryModel(script: ScriptInput, options: MemoryModelOptions): Promise<{ model: Model; session: MockSessionHandle }> {
  return memoryModelWith(script, options, loadedMockAdapter(options.wire) ?? (await loadMockAdapter(options.wire)));
}
