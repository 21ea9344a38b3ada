/**
 * What the loop does with one model response (docs/harness-rules.md#stop-reasons, docs/harness-rules.md#degeneration-fallbacks). Pure, so
 * every rule is testable on its own:
 * - continue only on a whitelist (`tool_use`); `end_turn`/`stop_sequence` with
 *   pending tool_use falls through to execution;
 * - a tool_use cut off by max_tokens / length / context window is never
 *   executed: it is answered with an error and the model gets another turn;
 * - `pause_turn` resends the conversation so the model can go on;
 * - null and unknown stop reasons fail closed: nothing runs, the loop ends.
 */
import type { StopClass, TurnStop } from '../../events/labels.js';

export type TurnDecision =
  | { kind: 'execute'; fallthrough: boolean }
  | { kind: 'reject_cut_calls' }
  | { kind: 'continue' }
  | { kind: 'stop'; stop: TurnStop; failClosed: boolean };

export interface DecisionSwitches {
  /** end_turn_fallthrough armed: run pending tool_use on end_turn. */
  fallthrough: boolean;
  /** cut_tool_call_guard armed: never run a cut-off tool_use. */
  cutGuard: boolean;
  /** stop_reason_fail_closed armed: null/unknown stop ends the loop. */
  failClosed: boolean;
}

const CUT: ReadonlySet<StopClass> = new Set(['max_tokens', 'context_window_exceeded']);

export function decideTurn(stopClass: StopClass, toolUseCount: number, on: DecisionSwitches): TurnDecision {
  const pending = toolUseCount > 0;
  switch (stopClass) {
    case 'tool_use':
      return pending ? { kind: 'execute', fallthrough: false } : { kind: 'stop', stop: 'end_turn', failClosed: false };
    case 'end_turn':
    case 'stop_sequence':
      if (pending && on.fallthrough) return { kind: 'execute', fallthrough: true };
      return { kind: 'stop', stop: 'end_turn', failClosed: false };
    case 'max_tokens':
    case 'context_window_exceeded':
      if (pending) return on.cutGuard ? { kind: 'reject_cut_calls' } : { kind: 'execute', fallthrough: false };
      return { kind: 'stop', stop: stopClass === 'max_tokens' ? 'max_tokens' : 'context_window_exceeded', failClosed: false };
    case 'pause_turn':
      return pending ? { kind: 'stop', stop: 'stop_reason_unhandled', failClosed: true } : { kind: 'continue' };
    case 'refusal':
      return { kind: 'stop', stop: 'refusal', failClosed: false };
    case 'content_filter':
      return { kind: 'stop', stop: 'content_filter', failClosed: false };
    case 'null':
    case 'unknown':
      // Fail-open variant (guard switched off) treats the turn like tool_use/end_turn.
      if (!on.failClosed) return pending ? { kind: 'execute', fallthrough: false } : { kind: 'stop', stop: 'end_turn', failClosed: false };
      return { kind: 'stop', stop: 'stop_reason_unhandled', failClosed: true };
    default: {
      const never: never = stopClass;
      return { kind: 'stop', stop: 'stop_reason_unhandled', failClosed: Boolean(never) || true };
    }
  }
}

export function isCutClass(stopClass: StopClass): boolean {
  return CUT.has(stopClass);
}
