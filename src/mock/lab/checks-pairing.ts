/**
 * Protocol pairing (docs/harness-rules.md#one-result-per-call, docs/harness-rules.md#results-in-one-message), read on each request as the harness
 * framed it: every tool_use answered, every result answering a call of the
 * turn before it, ids unique, a turn's results in one message with nothing
 * between them, and the assistant's own tool_use turn resent before them.
 */
import { CheckTally } from './check-result.js';
import type { SessionView } from './session-view.js';
import type { WireMessage, WireToolResult } from './transcript.js';

interface TurnGroup {
  uses: Array<{ id: string; name: string }>;
  /** The messages after the assistant turn, up to the next one. */
  followers: WireMessage[];
}

/** Runs of assistant messages are one model turn (some harnesses send its text and its calls apart). */
function groups(messages: readonly WireMessage[]): { groups: TurnGroup[]; before: WireMessage[] } {
  const out: TurnGroup[] = [];
  const before: WireMessage[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (message.role === 'assistant') {
      if (last && last.followers.length === 0) last.uses.push(...message.uses);
      else out.push({ uses: [...message.uses], followers: [] });
    } else if (last) last.followers.push(message);
    else before.push(message);
  }
  return { groups: out, before };
}

const resultsIn = (messages: readonly WireMessage[]): WireToolResult[] => messages.flatMap((m) => m.results);

/** How the results of one turn are split, in words (more than one message on Messages/Gemini, a non-result message between them on the OpenAI wires), or null. */
function splitHow(followers: readonly WireMessage[], wire: string): string | null {
  const carrying = followers.map((m, i) => (m.results.length > 0 ? i : -1)).filter((i) => i >= 0);
  if (carrying.length < 2) return null;
  // Messages and Gemini: one user message (content) carries all of a turn's results.
  if (wire === 'anthropic' || wire === 'gemini') return `come in ${carrying.length} separate user messages`;
  const first = carrying[0] as number;
  const last = carrying[carrying.length - 1] as number;
  const between = followers.slice(first, last + 1).filter((m) => m.results.length === 0).length;
  return between === 0 ? null : `have ${between} non-result message${between === 1 ? '' : 's'} between the first and the last of them`;
}

/**
 * Something before a turn's results, or (Messages wire, where consecutive user
 * messages are one turn) text between them: what is wrong, or null. A message
 * between separate result messages on the OpenAI wires is split_tool_results.
 */
function notFirstWhere(followers: readonly WireMessage[], wire: string): string | null {
  const oneMessage = wire === 'anthropic' || wire === 'gemini';
  const kinds = oneMessage ? followers.filter((m) => m.role === 'user').map((m) => m.kinds).join('') : followers.map((m) => (m.results.length > 0 ? 'R' : 'T')).join('');
  const first = kinds.indexOf('R');
  if (first > 0) return `${first} ${first === 1 ? 'block or message comes' : 'blocks or messages come'} before the first tool result`;
  if (oneMessage && /R+T+R/.test(kinds)) return 'text comes between the tool results in the user message';
  return null;
}

export function pairingChecks(view: SessionView): CheckTally[] {
  const orphanUse = new CheckTally('orphan_tool_use');
  const orphanResult = new CheckTally('orphan_tool_result');
  const duplicate = new CheckTally('duplicate_tool_id');
  const split = new CheckTally('split_tool_results');
  const missingTurn = new CheckTally('assistant_turn_missing');
  const notFirst = new CheckTally('tool_results_not_first');
  for (const { transcript, turn } of view.exchanges) {
    if (!transcript) continue;
    const { groups: turns, before } = groups(transcript.messages);
    const allUses = new Set(turns.flatMap((g) => g.uses.map((u) => u.id)));
    const seenUse = new Set<string>();
    for (const g of turns) {
      for (const use of g.uses) {
        duplicate.look(`use:${use.id}`);
        if (seenUse.has(use.id)) duplicate.flag(`use:${use.id}`, { turn, toolUseId: use.id, detail: `turn ${turn}: tool_use id ${use.id} appears twice in the history` });
        seenUse.add(use.id);
      }
      // The last turn of a request has no followers yet: nothing is owed.
      if (g.followers.length === 0 && g === turns[turns.length - 1]) continue;
      const results = resultsIn(g.followers);
      const answered = new Set(results.map((r) => r.id));
      for (const use of g.uses) {
        orphanUse.look(use.id);
        if (!answered.has(use.id)) orphanUse.flag(use.id, { turn, toolUseId: use.id, detail: `turn ${turn}: tool_use ${use.id} (${use.name}) has no tool_result in the messages after it` });
      }
      const counts = new Map<string, number>();
      for (const r of results) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
      for (const [id, n] of counts) if (n > 1) duplicate.flag(`result:${id}`, { turn, toolUseId: id, detail: `turn ${turn}: ${n} tool_results answer ${id}` });
      if (results.length > 0 && g.uses.length > 0) {
        const key = g.uses[0]!.id;
        split.look(key);
        const how = splitHow(g.followers, transcript.wire);
        if (how !== null) split.flag(key, { turn, toolUseId: key, detail: `turn ${turn}: the results of one assistant turn (${g.uses.length} calls) ${how}` });
        notFirst.look(key);
        const where = notFirstWhere(g.followers, transcript.wire);
        if (where !== null) notFirst.flag(key, { turn, toolUseId: key, detail: `turn ${turn}: ${where} (the Messages API answers 400 "Did not find ${g.uses.length} \`tool_result\` block(s) at the beginning of this message")` });
      }
      for (const r of results) checkResult(r, g.uses.map((u) => u.id), turn);
    }
    for (const r of resultsIn(before)) checkResult(r, [], turn);

    function checkResult(r: WireToolResult, asked: readonly string[], at: number): void {
      if (asked.includes(r.id)) return;
      if (view.issued.has(r.id) && !allUses.has(r.id)) {
        missingTurn.look(r.id);
        missingTurn.flag(r.id, { turn: at, toolUseId: r.id, detail: `turn ${at}: a tool_result answers ${r.id}, but the assistant turn that called it is missing from the history` });
        return;
      }
      orphanResult.look(r.id);
      orphanResult.flag(r.id, { turn: at, toolUseId: r.id, detail: `turn ${at}: tool_result ${r.id} answers no tool_use of the turn before it` });
    }
  }
  // Results that answered their own turn count as looked-at for the two result checks too.
  for (const call of view.issued.values()) {
    orphanResult.look(call.id);
    missingTurn.look(call.id);
  }
  return [orphanUse, orphanResult, duplicate, split, missingTurn, notFirst];
}
