/**
 * docs/harness-rules.md#degeneration-fallbacks, docs/harness-rules.md#combined-mechanisms: a tool_use with empty arguments (`{}` for a tool that
 * needs fields) is a degradation signal. Each one is answered with a result
 * that says the arguments were empty and to send them again (validation
 * does that); this defense is the cap on those retries — without it, "hint,
 * degrade, hint again" is a loop of its own. Past the cap the session stops.
 */
import { defineDefense } from './define.js';
import type { SettledCallView } from './types.js';

/** Consecutive turns of nothing but empty-argument calls that still get a retry prompt. */
export const MAX_EMPTY_ARG_RETRIES = 2;

function isEmptyArgumentCall(call: SettledCallView): boolean {
  if (call.inputError === 'empty') return true;
  const empty = call.input !== null && typeof call.input === 'object' && Object.keys(call.input).length === 0;
  return empty && call.failureKind === 'invalid_input';
}

export const emptyArgsRetryCap = defineDefense({
  name: 'empty_args_retry_cap',
  guards: 'a degraded model sending tool calls with empty arguments turn after turn: after the retry cap the session stops instead of asking again',
  source: 'docs/harness-rules.md#degeneration-fallbacks (MAX_EMPTY_PARAM_RETRIES), docs/harness-rules.md#combined-mechanisms',
  defaultOn: true,
  action: 'stop',
  session() {
    let streak = 0;
    return {
      afterTurn(turn) {
        streak = turn.calls.length > 0 && turn.calls.every(isEmptyArgumentCall) ? streak + 1 : 0;
        if (streak <= MAX_EMPTY_ARG_RETRIES) return null;
        return {
          stop: `The model sent tool calls with empty arguments ${streak} turns in a row; the harness stopped after ${MAX_EMPTY_ARG_RETRIES} retries instead of asking again.`,
        };
      },
    };
  },
});
