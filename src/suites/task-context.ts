/** A task's context-manager settings (context_window, compact_at, compact_keep_turns, context_manager) as the harness's ContextConfig. */
import { DEFAULT_CONTEXT_CONFIG, type ContextConfig } from '../harness/context/context-manager.js';
import type { TaskSpec } from './schema.js';

type ContextSettings = Pick<TaskSpec, 'context_window' | 'compact_at' | 'compact_keep_turns' | 'context_manager'>;

export function taskContextConfig(task: ContextSettings): ContextConfig | null {
  if (task.context_manager === false) return null;
  return {
    windowTokens: task.context_window ?? DEFAULT_CONTEXT_CONFIG.windowTokens,
    compactAt: task.compact_at ?? DEFAULT_CONTEXT_CONFIG.compactAt,
    keepTurns: task.compact_keep_turns ?? DEFAULT_CONTEXT_CONFIG.keepTurns,
  };
}

/** `faultline run --context-window / --compact-at / --no-context-manager`: the run's values win over each task's. */
export interface ContextFlags {
  contextWindow?: number;
  compactAt?: number;
  contextManager?: boolean;
}

export function withContextFlags<T extends ContextSettings>(tasks: readonly T[], flags: ContextFlags): T[] {
  const over = {
    ...(flags.contextWindow !== undefined ? { context_window: flags.contextWindow } : {}),
    ...(flags.compactAt !== undefined ? { compact_at: flags.compactAt } : {}),
    ...(flags.contextManager === false ? { context_manager: false } : {}),
  };
  // No flag given: the tasks themselves, not a copy of each (every run without these flags copied every task).
  return Object.keys(over).length > 0 ? tasks.map((t) => ({ ...t, ...over })) : [...tasks];
}

/** Parses a flag value; null when it is not what the flag takes. */
export function parseContextWindow(text: string): number | null {
  const n = Number(text);
  return /^\d+$/.test(text.trim()) && Number.isSafeInteger(n) && n > 0 ? n : null;
}

export function parseCompactAt(text: string): number | null {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) && n > 0 && n <= 1 ? n : null;
}
