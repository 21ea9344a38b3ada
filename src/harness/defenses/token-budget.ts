/**
 * docs/harness-rules.md#termination: a token budget ends the session before it burns through more.
 * Armed only in sessions that have a budget; evaluated once per turn
 * boundary in loop/agent-loop.ts, where it stops the loop (stop
 * `token_budget`, the specific name of this defense's stop).
 */
import type { WiredDefense } from './types.js';

export const tokenBudget: WiredDefense = {
  name: 'token_budget',
  guards: 'a session that keeps spending: once input + output tokens reach the budget no further model call is made',
  source: 'docs/harness-rules.md#termination (termination set: token budget)',
  defaultOn: true,
  action: 'stop',
  evaluatedAt: 'turn_end',
};
