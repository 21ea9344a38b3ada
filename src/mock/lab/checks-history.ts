/**
 * The conversation as a whole: the history resent is the one the model wrote
 * (each issued call resent with its id, name and input; earlier messages
 * byte-for-byte), the harness does not stop with calls it was given still
 * unanswered, and it does not ask for more once the model ended the
 * conversation.
 */
import { CheckTally } from './check-result.js';
import { answeredWhole, type Exchange, type SessionView } from './session-view.js';
import type { Transcript } from './transcript.js';

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** Issued calls resent with another name or input than the mock issued. */
function alteredCalls(view: SessionView, tally: CheckTally): void {
  for (const { transcript, turn } of view.exchanges) {
    for (const m of transcript?.messages ?? []) {
      for (const use of m.uses) {
        const call = view.issued.get(use.id);
        // Cut and malformed calls have no whole input to resend: a harness may resend what it parsed.
        if (!call || call.cut || call.malformed) continue;
        tally.look(use.id);
        if (use.name !== call.name) tally.flag(use.id, { turn, toolUseId: use.id, detail: `turn ${turn}: the resent call ${use.id} is named ${use.name}, but the model issued ${call.name}` });
        else if (use.input !== call.input) tally.flag(use.id, { turn, toolUseId: use.id, detail: `turn ${turn}: the resent call ${use.id} (${call.name}) carries input ${short(use.input)}, but the model issued ${short(call.input)}` });
      }
    }
  }
}

/** The messages that must stay as they were: everything but system messages (dynamic_prefix judges those). */
const history = (t: Transcript) => t.messages.filter((m) => m.role !== 'system' && m.raw !== '');

/** An earlier message changed (or vanished) between two requests the mock answered. */
function rewritten(view: SessionView, tally: CheckTally): void {
  let before: Exchange | null = null;
  for (const exchange of view.exchanges) {
    const { transcript, record, turn } = exchange;
    if (!transcript) continue;
    // A request continuing a stored response keeps its history on the server: nothing to rewrite.
    if (before?.transcript && before.record.wire === record.wire && transcript.previousResponseId === null) {
      const old = history(before.transcript);
      const now = history(transcript);
      tally.look(`req:${view.exchanges.indexOf(exchange)}`);
      const changed = old.findIndex((m, i) => now[i]?.raw !== m.raw);
      if (changed >= 0) {
        const what = now[changed] === undefined ? 'is no longer sent' : `was resent changed (a ${old[changed]!.role} message${old[changed]!.results.length > 0 ? ' with tool results' : ''})`;
        tally.flag(`turn:${turn}`, { turn, detail: `turn ${turn}: message ${changed + 1} of the history the previous request sent ${what}: the cached prefix from there on is paid again` });
      }
    }
    if (record.status === 200) before = exchange;
  }
}

/** The harness stopped while calls of the last answer it got were unanswered. */
function leftUnanswered(view: SessionView, tally: CheckTally): void {
  // Cut calls may be left (stopping on a cut turn is conformant); undeclared ones are hallucinated_tool_unanswered's.
  const owed = [...view.issued.values()].filter((c) => !c.cut && c.declared);
  for (const c of owed) tally.look(c.id);
  const last = view.exchanges[view.exchanges.length - 1];
  if (!last || !answeredWhole(last.record) || last.record.said === null) return;
  const at = view.exchanges.length - 1;
  const pending = owed.filter((c) => c.at === at);
  // A model that never stops: stopping at the harness's own turn cap leaves the last calls unanswered by design.
  // Stopped by the lab (its timeout) while a call was running: not the harness stopping.
  if (pending.length === 0 || view.endless || view.end.timedOut) return;
  const text = last.record.said.content.some((b) => b.type === 'text');
  const why = last.record.said.stopReason === 'end_turn' ? ' (they came with stop reason end_turn)' : text ? ' (they came with text beside them)' : '';
  const ended = view.end.exitCode === null ? 'was stopped' : `exited with code ${view.end.exitCode}`;
  tally.flag(`turn:${last.turn}`, { turn: last.turn, toolUseId: pending[0]!.id, detail: `turn ${last.turn}: the harness ${ended} without sending results for ${pending.map((c) => `${c.id} (${c.name})`).join(', ')}${why}` });
}

/** Conversation requests that came after the model's final answer (the mock answers them, recorded apart). */
function afterEnd(view: SessionView, tally: CheckTally): void {
  const final = view.exchanges.some((e) => answeredWhole(e.record) && e.record.said !== null && !e.record.said.content.some((b) => b.type === 'tool_use') && e.record.said.stopReason === 'end_turn');
  if (final) tally.look('end');
  const extra = view.side.filter((r) => r.side === 'after_end');
  if (extra.length > 0) tally.flag('end', { turn: extra[0]!.turn ?? 0, detail: `${extra.length} conversation request${extra.length === 1 ? '' : 's'} after the model's final answer (turn ${(extra[0]!.turn ?? 1) - 1} ended without calls)` });
}

export function historyChecks(view: SessionView): CheckTally[] {
  const altered = new CheckTally('resent_turn_altered');
  const rewrites = new CheckTally('history_rewritten');
  const unanswered = new CheckTally('calls_left_unanswered');
  const after = new CheckTally('request_after_end');
  alteredCalls(view, altered);
  rewritten(view, rewrites);
  leftUnanswered(view, unanswered);
  afterEnd(view, after);
  return [altered, rewrites, unanswered, after];
}
