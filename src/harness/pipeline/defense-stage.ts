/**
 * The defenses' stage, after validation and before execution: a hook
 * defense's `beforeToolCall` may block the call (failure kind
 * `defense_blocked`, its text the result the model reads) or ask for
 * approval (refused when headless, as an ask is everywhere in the chain).
 */
import type { CallGuardVerdict } from '../defenses/runtime.js';
import type { ToolCallView } from '../defenses/types.js';
import type { PipelineCall, StageResult } from './call.js';
import type { SessionPermissions } from './services.js';

export type CallGuard = (view: ToolCallView, label: string) => Promise<CallGuardVerdict | null>;

export async function defenseStage(
  call: PipelineCall,
  input: unknown,
  guard: CallGuard,
  label: string,
  permissions: SessionPermissions | null | undefined,
): Promise<StageResult<void>> {
  const view: ToolCallView = { turn: call.turn, id: call.block.id, tool: call.block.name, input, inputError: call.block.inputError?.reason ?? null };
  const verdict = await guard(view, label);
  if (verdict === null) return { ok: true, value: undefined };
  if ('ask' in verdict) {
    const answer = permissions?.askHuman ? await permissions.askHuman({ tool: call.block.name, input, reason: verdict.ask }) : 'deny';
    if (answer === 'allow') return { ok: true, value: undefined };
    const who = permissions?.askHuman ? 'the user refused it' : 'no one can approve it in this headless session';
    return { ok: false, failure: { kind: 'defense_blocked', errorCode: `${verdict.defense}:refused`, message: `${verdict.ask} This ${call.block.name} call needs approval and ${who}, so it was not run.` } };
  }
  return { ok: false, failure: { kind: 'defense_blocked', errorCode: verdict.defense, message: verdict.block } };
}
