/** `faultline run --no-prompt-cache / --stream-idle-timeout / --first-byte-timeout`: the run's values win over each task's settings. */
import type { TaskSpec } from './schema.js';

export interface ModelFlags {
  promptCache?: boolean;
  streamIdleTimeoutMs?: number;
  firstByteTimeoutMs?: number;
}

export function withModelFlags<T extends Pick<TaskSpec, 'prompt_cache' | 'stream_idle_timeout_ms' | 'first_byte_timeout_ms'>>(tasks: readonly T[], flags: ModelFlags): T[] {
  const over = {
    ...(flags.promptCache === false ? { prompt_cache: false } : {}),
    ...(flags.streamIdleTimeoutMs !== undefined ? { stream_idle_timeout_ms: flags.streamIdleTimeoutMs } : {}),
    ...(flags.firstByteTimeoutMs !== undefined ? { first_byte_timeout_ms: flags.firstByteTimeoutMs } : {}),
  };
  // No flag given: the tasks themselves, not a copy of each (every run without these flags copied every task).
  return Object.keys(over).length > 0 ? tasks.map((t) => ({ ...t, ...over })) : [...tasks];
}

/** A positive whole number of milliseconds, or null. */
export function parseMs(text: string): number | null {
  const n = Number(text);
  return /^\d+$/.test(text.trim()) && Number.isSafeInteger(n) && n > 0 ? n : null;
}
