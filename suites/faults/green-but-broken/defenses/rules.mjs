// Rules for the green-but-broken scenarios (docs/harness-rules.md#green-but-broken): each is sound, and the
// scenario's harness fault or its own bug keeps it from ever acting, so the
// report has something to catch. One defense module per scenario (the files
// next to this one), so each name is armed only where its failure is staged.
// Plain objects: a defense module needs no import (faultline checks the
// shape when it loads the module).

/** Fires on every successful read: it can only stay silent if it is never called or its verdict is dropped. */
export function readWatcher(name) {
  return {
    name,
    guards: 'a read of any file (a deliberately loud rule, for the green-but-broken scenarios)',
    source: 'docs/harness-rules.md#dead-defense',
    defaultOn: true,
    action: 'alert',
    session: () => ({
      afterToolCall: (call) => (call.tool === 'read' && call.failureKind === null ? { alert: `read ${call.id}` } : null),
    }),
  };
}

export const failedCallCounter = {
  name: 'gbb_failed_call_counter',
  guards: 'a tool call that failed (counted, for the judged-vs-triggered scenario)',
  source: 'docs/harness-rules.md#judged-vs-triggered',
  defaultOn: true,
  action: 'alert',
  session: () => ({ afterToolCall: (call) => (call.isError ? { alert: call.id } : null) }),
};

export const blindDeferredCall = {
  name: 'gbb_blind_deferred_call',
  guards: 'a deferred tool called before tool_search loaded it, when tool search is enabled',
  source: 'docs/harness-rules.md#state-before-init (deferred-tool-view: a flag read before it is set)',
  defaultOn: true,
  action: 'hint',
  session() {
    // The F2 bug: the rule is decided when the session starts, from state that only a later tool_search
    // call sets, so it stays off for the whole session — every evaluation runs, none can fire.
    const state = { toolSearchEnabled: false };
    const ruleOn = state.toolSearchEnabled; // read before anything wrote it
    return {
      afterToolCall(call) {
        if (call.tool === 'tool_search') state.toolSearchEnabled = true; // written too late to matter
        if (ruleOn && call.failureKind === 'invalid_input' && /not loaded/.test(call.output)) {
          return { hint: `Load ${call.tool} with tool_search first.` };
        }
        return null;
      },
    };
  },
};

/**
 * Judges bash calls only, and says so (`judges`): the harness calls it for
 * bash calls alone and the report counts only bash calls as evidence, so a
 * session without bash shows it "not reached", never "wiring broken".
 */
export function bashWatcher(name) {
  return {
    name,
    guards: 'a bash call (a deliberately loud rule that judges bash calls only)',
    source: 'the guide on telling a defense that was never reached from one whose wiring is broken',
    defaultOn: true,
    action: 'alert',
    judges: { tools: ['bash'] },
    session: () => ({ afterToolCall: (call) => ({ alert: `bash ${call.id}` }) }),
  };
}
