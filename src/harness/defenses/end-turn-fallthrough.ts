/** docs/harness-rules.md#degeneration-fallbacks: `end_turn` with a pending tool_use runs the call instead of ending the task half done. */
import type { WiredDefense } from './types.js';

export const endTurnFallthrough: WiredDefense = {
  name: 'end_turn_fallthrough',
  guards: 'a reply that says it is done (end_turn / stop) while a tool_use is still pending: the call runs instead of the task ending half done',
  source: 'docs/harness-rules.md#degeneration-fallbacks (sid-code loop.ts, whitelist isEndTurnLike)',
  defaultOn: true,
  action: 'fallthrough',
  // Evaluated in loop/agent-loop.ts on every model response (turn-decision.ts applies it).
  evaluatedAt: 'model_response',
};
