/**
 * The in-process mount as a Model: one process-wide memory mount, a session
 * per call, the REAL adapter given the mount's fetch. The suite runner's
 * default for the mock (loopback-model.ts is the HTTP one); it opens sessions
 * with openMemoryModel (memory-model-lazy.ts), which loads only the wire's SDK.
 */
import { mockAdapter } from './mock-adapter.js';
import { memoryModelWith, sharedMemoryMount, type MemoryModelOptions } from './memory-model-lazy.js';
import type { MockSessionHandle } from './mock-router.js';
import type { ScriptInput } from './script.js';
import type { Model } from '../providers/types.js';

export { sharedMemoryMount };

/** `script`: as written, or `{ parsed }` when it is ModelScript's output already (a loaded suite's task). */
export function memoryModel(script: ScriptInput, options: MemoryModelOptions): { model: Model; session: MockSessionHandle } {
  return memoryModelWith(script, options, (adapterOptions) => mockAdapter({ ...adapterOptions, wire: options.wire }));
}
