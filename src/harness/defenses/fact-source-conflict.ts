/**
 * docs/harness-rules.md#fact-source-conflict: a fact frozen into the system prompt at session start (git
 * status) contradicts what the tools now show, and a weak model cannot tell
 * which source is current — it re-checks forever on a task that is done.
 * The fix is never to rewrite the system prompt (that breaks the prompt
 * cache, docs/harness-rules.md#stable-prefix): the live value goes into a user-side reminder that says
 * which source is current.
 *
 * It fires when the model is re-checking a fact that contradicts what it was
 * told: a call it made before returns the same output again, that output is
 * the live value, and the live value differs from what the model was last
 * told — once per new value. A single look is not yet a loop; edits made
 * without looking are no conflict the model has seen; a live value equal to
 * the frozen one is none at all.
 */
import { callSignature } from './call-key.js';
import { defineDefense } from './define.js';

function normalize(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

export const factSourceConflict = defineDefense({
  name: 'fact_source_conflict',
  guards: 'a fact frozen into the system prompt (git status at session start) contradicting the live state the tools show, leaving the model re-checking a finished task',
  source: 'docs/harness-rules.md#fact-source-conflict (repeated-readonly-guard: live git state through reminderParts, never by rewriting the system prompt)',
  defaultOn: true,
  action: 'hint',
  appliesTo: (context) => context.snapshots.length > 0,
  session(context) {
    const told = new Map(context.snapshots.map((s) => [s.name, normalize(s.value)]));
    const lastOutput = new Map<string, string>();
    return {
      async afterTurn(turn) {
        const seen = new Set<string>();
        for (const call of turn.calls) {
          if (call.failureKind !== null) continue;
          const signature = callSignature(call.tool, call.input);
          const output = normalize(call.output);
          if (lastOutput.get(signature) === output) seen.add(output);
          lastOutput.set(signature, output);
        }
        if (seen.size === 0) return null;
        for (const snapshot of context.snapshots) {
          const raw = await snapshot.read();
          if (raw === null) continue;
          const live = normalize(raw);
          if (live === told.get(snapshot.name) || !seen.has(live)) continue;
          told.set(snapshot.name, live);
          return {
            hint:
              `The ${snapshot.name} in the system prompt was captured when the session started and is out of date. ` +
              `Its live value, read just now, is:\n${live || '(clean: nothing to report)'}\n` +
              'This and your tool results are current; the system prompt is not.',
          };
        }
        return null;
      },
    };
  },
});
