/**
 * docs/harness-rules.md#false-positive-detector (repeated-readonly-guard), docs/harness-rules.md#fact-source-conflict: the same tool with the same
 * input returning the same result, turn after turn, with nothing else done
 * in between, is a loop for certain — the model learns nothing new by
 * calling again. The rule is deliberately narrow (exact input AND exact
 * output, in N consecutive turns that do nothing but repeat), so legitimate
 * repetition never matches: re-running tests whose output changes, tests run
 * after each edit (the edit makes the turn more than a repeat), re-reading a
 * file another call edited, polling with a wait in between, or the same call
 * made several times in parallel within one turn. That is why it can be on by
 * default and act.
 */
import { callSignature, outputDigest } from './call-key.js';
import { defineDefense } from './define.js';
import type { SettledCallView } from './types.js';

/** Consecutive turns of the identical calls and results before the hint. */
export const IDENTICAL_CALL_THRESHOLD = 3;

const keyOf = (call: SettledCallView) => `${callSignature(call.tool, call.input)}\u0000${outputDigest(call.isError, call.output)}`;

export const identicalCallLoop = defineDefense({
  name: 'identical_call_loop',
  guards: 'the same tool called with the same input and getting the same result turn after turn, doing nothing else (a loop the model cannot see)',
  source: 'docs/harness-rules.md#false-positive-detector (repeated-readonly-guard: exact command + exact output, narrow, on by default), docs/harness-rules.md#fact-source-conflict',
  defaultOn: true,
  action: 'hint',
  session() {
    // The previous turn's calls (as exact keys) and how many turns in a row they have been the same.
    let previous = new Set<string>();
    let run = 0;
    return {
      afterTurn(turn) {
        if (turn.calls.length === 0) return null;
        const keys = new Set(turn.calls.map(keyOf));
        const repeat = keys.size === previous.size && [...keys].every((k) => previous.has(k));
        run = repeat ? run + 1 : 1;
        previous = keys;
        if (run < IDENTICAL_CALL_THRESHOLD) return null;
        const call = turn.calls[0]!;
        return {
          tool: call.tool,
          hint:
            `You have called ${call.tool} with the same input in ${IDENTICAL_CALL_THRESHOLD} turns in a row, doing nothing else, and got the same ${call.isError ? 'error' : 'result'} each time. ` +
            'Calling it again will return the same thing: use the result you have, or change the input or the approach. If you are waiting for something to change, check for the change itself.',
        };
      },
    };
  },
});
