/** docs/harness-rules.md#stop-reasons: a tool_use cut off by the output limit is never executed. */
import type { WiredDefense } from './types.js';

export const cutToolCallGuard: WiredDefense = {
  name: 'cut_tool_call_guard',
  guards: 'max_tokens / length / context-window cuts inside a tool_use: the half-written call is answered with an error, never run',
  source: 'docs/harness-rules.md#stop-reasons, docs/harness-rules.md#termination',
  defaultOn: true,
  action: 'block',
  // Evaluated in loop/agent-loop.ts on every model response (turn-decision.ts applies it).
  evaluatedAt: 'model_response',
};
