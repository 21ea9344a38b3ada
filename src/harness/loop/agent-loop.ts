/**
 * The agent loop (docs/harness-rules.md#agent-loop): ask the model, run the tools it asks for, send
 * every result back in one message, repeat — until a stop condition holds.
 * Termination set: max turns, token budget, abort, a stop from the turn
 * decision, a model error. Every turn is logged as events.
 */
import { attributeStop } from './stop-attribution.js';
import { loadShellParser } from '../permissions/shell-parser.js';
import { LoopState } from './loop-state.js';
import { round, runTurns } from './agent-turn.js';
import type { AgentResult, AgentRunOptions } from './agent-run-options.js';

export type { AgentResult, AgentRunOptions } from './agent-run-options.js';

export async function runAgent(options: AgentRunOptions): Promise<AgentResult> {
  // bash calls are analysed synchronously (permissions, concurrency safety): the grammar must be in memory first.
  await loadShellParser();
  // Setup and the turns are separate functions: each is optimized (and deoptimized) on its own.
  const s = new LoopState(options);
  await runTurns(s);
  const { explicit, turn } = s;
  const stop = attributeStop({
    explicit,
    aborted: s.signal.aborted,
    maxTurns: explicit === null && turn >= s.config.maxTurns,
    tokenBudget: s.budgetStop,
    error: s.errorStop,
  });
  s.defenses.emitStats();
  const { modelError } = s;
  return {
    stop,
    turns: turn,
    usage: s.usage,
    finalText: s.finalText,
    messages: s.messages,
    durationMs: round(s.now() - s.started),
    defenses: s.defenses,
    ...(modelError !== undefined ? { modelError } : {}),
  };
}
