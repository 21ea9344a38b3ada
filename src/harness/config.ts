/** Harness settings with their defaults (seed §4.4 termination set). */
import type { DefenseName } from '../events/labels.js';

export interface HarnessConfig {
  /** Hard cap on model turns (seed §4.4). */
  maxTurns: number;
  /** Stop once input+output tokens across turns exceed this; null = no budget. */
  tokenBudget: number | null;
  /** max_tokens sent with every model request. */
  maxTokens: number;
  /** Default per-call tool timeout in ms (a tool may set its own). */
  toolTimeoutMs: number;
  system?: string;
  /** Defenses switched off, to show that a scenario fails without them. */
  disabledDefenses: readonly DefenseName[];
}

export const DEFAULT_HARNESS_CONFIG: HarnessConfig = {
  maxTurns: 20,
  tokenBudget: null,
  maxTokens: 4096,
  toolTimeoutMs: 120_000,
  disabledDefenses: [],
};
