/**
 * Loads a suite's hook module with dynamic import. A `.ts` module loads when
 * the process runs under tsx (dev, tests); the built CLI loads `.js`/`.mjs`.
 * A module that exports neither hook is a configuration error, reported
 * before any model call rather than silently running without hooks.
 */
import { pathToFileURL } from 'node:url';
import { importOncePerPath } from '../module-import.js';
import type { HookSet } from './types.js';

export class HookLoadError extends Error {
  readonly code = 'HOOK_LOAD_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'HookLoadError';
  }
}

/** `modulePath` is resolved against `baseDir` (the suite file's directory) when relative. */
export const loadHooks: (modulePath: string, baseDir: string) => Promise<HookSet> = importOncePerPath((full) => importHooks(full));

async function importHooks(full: string): Promise<HookSet> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
  } catch (error) {
    throw new HookLoadError(`cannot load hook module ${full}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const source = pickExports(mod);
  const set: HookSet = {};
  if (typeof source.preToolUse === 'function') set.preToolUse = source.preToolUse as HookSet['preToolUse'];
  if (typeof source.postToolUse === 'function') set.postToolUse = source.postToolUse as HookSet['postToolUse'];
  if (typeof source.postToolUseFailure === 'function') set.postToolUseFailure = source.postToolUseFailure as HookSet['postToolUseFailure'];
  if (typeof source.timeoutMs === 'number' && source.timeoutMs > 0) set.timeoutMs = source.timeoutMs;
  if (!set.preToolUse && !set.postToolUse && !set.postToolUseFailure) {
    throw new HookLoadError(`hook module ${full} exports none of preToolUse, postToolUse, postToolUseFailure`);
  }
  return set;
}

function pickExports(mod: Record<string, unknown>): Record<string, unknown> {
  const fallback = mod.default;
  if (typeof mod.preToolUse === 'function' || typeof mod.postToolUse === 'function' || typeof mod.postToolUseFailure === 'function') return mod;
  return typeof fallback === 'object' && fallback !== null ? (fallback as Record<string, unknown>) : mod;
}
