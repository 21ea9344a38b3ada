/**
 * docs/harness-rules.md#low-yield-spin: a stable loop driven by low-information observations — the
 * model re-runs one command that returns a single number (`tsc | grep -c`,
 * `wc -l`), learns nothing it can act on, and runs it again. The four
 * conditions must hold together (narrow, so it can act):
 *   1. nothing was written to the workspace during the turn (checked on the
 *      files themselves, not on the command's name: a pipeline that is not
 *      on any read-only list is judged the same);
 *   2. no text for the user in the turn;
 *   3. the same calls, byte for byte, as the previous turn;
 *   4. every output a single scalar, the same as the previous turn's.
 * Judged by the output's shape, not the command: cargo check, pytest or tsc
 * behind `grep -c` all match. Condition 4 is what sets it apart from
 * identical_call_loop (exact repeats of any output, counted over the session).
 */
import { callSignature } from './call-key.js';
import { defineDefense } from './define.js';
import type { TurnView } from './types.js';
import { workspaceFingerprint } from './workspace-fingerprint.js';

/** A bare number, optionally followed by one word (`wc -l file` prints "12 file"). */
const SCALAR = /^[-+]?\d+(?:[.,]\d+)?%?(?: +\S+)?$/;

function scalarOutputs(turn: TurnView): string | null {
  if (turn.calls.length === 0) return null;
  const values: string[] = [];
  for (const call of turn.calls) {
    if (call.failureKind !== null && call.failureKind !== 'tool_error') return null; // never ran, or the harness failed
    const out = call.output.trim();
    if (out.includes('\n') || !SCALAR.test(out)) return null;
    values.push(out);
  }
  return values.join('\n');
}

export const lowYieldSpin = defineDefense({
  name: 'low_yield_spin',
  guards: 'the model re-running a command that only returns one number, learning nothing it can act on, turn after turn',
  source: 'docs/harness-rules.md#low-yield-spin (low-yield-spin.ts: four conditions, judged by output shape, not command name)',
  defaultOn: true,
  action: 'hint',
  session(context) {
    let previous: { signature: string; scalar: string; files: string | null } | null = null;
    return {
      async afterTurn(turn) {
        const scalar = turn.text.trim() === '' ? scalarOutputs(turn) : null;
        if (scalar === null) {
          previous = null;
          return null;
        }
        const signature = turn.calls.map((c) => callSignature(c.tool, c.input)).join('\n');
        const files = await workspaceFingerprint(context.workspace);
        const spinning = previous !== null && previous.signature === signature && previous.scalar === scalar && files !== null && previous.files === files;
        previous = { signature, scalar, files };
        if (!spinning) return null;
        return {
          hint:
            'The last two turns ran the same command and got back the same single number, with no file changed and nothing said to the user. ' +
            'A bare count gives you nothing to act on. Run the command so that it shows the items themselves (for example save the full output to a file, ' +
            'count it, then look at the first few errors), and fix those.',
        };
      },
    };
  },
});
