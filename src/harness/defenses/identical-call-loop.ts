/**
 * seed §13.7 (repeated-readonly-guard), §13.9: the same tool with the same
 * input returning the same result in N consecutive turns is a loop for
 * certain — the model learns nothing new by calling again. The rule is
 * deliberately narrow (exact input AND exact output, turn after turn), so
 * legitimate repetition never matches: re-running tests whose output
 * changes, re-reading a file another call edited, polling with a wait in
 * between (the other call breaks the run), or the same call made several
 * times in parallel within one turn. That is why it can be on by default and act.
 */
import { callSignature, outputDigest } from './call-key.js';
import { defineDefense } from './define.js';

/** Consecutive turns with the identical call and result before the hint. */
export const IDENTICAL_CALL_THRESHOLD = 3;

export const identicalCallLoop = defineDefense({
  name: 'identical_call_loop',
  guards: 'the same tool called with the same input and getting the same result turn after turn (a loop the model cannot see)',
  source: 'seed §13.7 (repeated-readonly-guard: exact command + exact output, narrow, on by default), §13.9',
  defaultOn: true,
  action: 'hint',
  session() {
    // Run length of each (call, result) up to the previous turn, and in the turn being judged.
    let previous = new Map<string, number>();
    let current = new Map<string, number>();
    let turn = 0;
    return {
      afterToolCall(call) {
        if (call.turn !== turn) {
          previous = call.turn === turn + 1 ? current : new Map();
          current = new Map();
          turn = call.turn;
        }
        const key = `${callSignature(call.tool, call.input)}\u0000${outputDigest(call.isError, call.output)}`;
        if (current.has(key)) return null; // the same call twice in one turn is one repetition
        const run = (previous.get(key) ?? 0) + 1;
        current.set(key, run);
        if (run < IDENTICAL_CALL_THRESHOLD) return null;
        return {
          hint:
            `You have called ${call.tool} with the same input in ${IDENTICAL_CALL_THRESHOLD} turns in a row and got the same ${call.isError ? 'error' : 'result'} each time. ` +
            'Calling it again will return the same thing: use the result you have, or change the input or the approach. If you are waiting for something to change, check for the change itself.',
        };
      },
    };
  },
});
