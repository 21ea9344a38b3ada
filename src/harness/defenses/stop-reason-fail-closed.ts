/** docs/harness-rules.md#degeneration-fallbacks: the loop continues only on a whitelisted stop reason; null or unknown ends it. */
import type { WiredDefense } from './types.js';

export const stopReasonFailClosed: WiredDefense = {
  name: 'stop_reason_fail_closed',
  guards: 'a null or unknown stop reason: the loop ends without acting on the reply (whitelist, fail closed)',
  source: 'docs/harness-rules.md#stop-reasons, docs/harness-rules.md#degeneration-fallbacks (P0-2: whitelist, not blacklist)',
  defaultOn: true,
  action: 'stop',
  // Evaluated in loop/agent-loop.ts on every model response (turn-decision.ts applies it).
  evaluatedAt: 'model_response',
};
