/** What the defenses see of a finished turn: each call with its input, outcome and output, in call order. */
import type { ToolResultBlock, ToolUseBlock, Usage } from '../../providers/types.js';
import type { SettledCallView, TurnView } from '../defenses/types.js';
import type { CallLedger } from '../pipeline/settlement.js';
import { packedMap } from '../packed-map.js';

export function turnView(turn: number, text: string, toolUses: readonly ToolUseBlock[], results: readonly ToolResultBlock[], ledger: CallLedger, usage: Usage): TurnView {
  const calls: SettledCallView[] = packedMap(toolUses, (block, i) => {
    const entry = ledger.get(block.id);
    const result = results[i];
    return {
      turn,
      id: block.id,
      tool: block.name,
      input: entry?.input ?? block.input,
      inputError: block.inputError?.reason ?? null,
      isError: result?.is_error ?? true,
      // Settled without a ledger entry only when the loop answered it itself (a cut call): an invalid input.
      failureKind: entry ? entry.kind : 'invalid_input',
      output: entry?.output ?? result?.content ?? '',
    };
  });
  return { turn, text, calls, usage: { ...usage } };
}
