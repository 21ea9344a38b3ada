/**
 * Turn-stop attribution (docs/harness-rules.md#termination): when several stop causes hold at once,
 * the priority is explicit reason > abort > max turns > error. A token
 * budget stop counts as an explicit reason (the harness decided it).
 */
import type { TurnStop } from '../../events/labels.js';

export interface StopCauses {
  explicit: TurnStop | null;
  aborted: boolean;
  maxTurns: boolean;
  tokenBudget: boolean;
  error: TurnStop | null;
}

export function attributeStop(causes: StopCauses): TurnStop {
  if (causes.explicit) return causes.explicit;
  if (causes.tokenBudget) return 'token_budget';
  if (causes.aborted) return 'aborted';
  if (causes.maxTurns) return 'max_turns';
  if (causes.error) return causes.error;
  return 'harness_error';
}
