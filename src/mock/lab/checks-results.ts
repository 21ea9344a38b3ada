/**
 * What the harness sends back for the calls the mock issued: never a result
 * for a call that was cut off (seed §2.3, §13.2); an error result, not a crash
 * or silence, for a tool that does not exist (seed §5.3); no empty text
 * (seed §9.1) and no huge result (seed §9.2).
 */
import { OVERSIZED_RESULT_BYTES } from './catalog.js';
import { CheckTally } from './check-result.js';
import { isGenericTool } from './tool-map.js';
import { looksLikeError, type SessionView } from './session-view.js';
import type { WireToolResult } from './transcript.js';

/** The first result for each id, with the exchange it came in. */
function firstResults(view: SessionView): Map<string, { result: WireToolResult; at: number; turn: number }> {
  const out = new Map<string, { result: WireToolResult; at: number; turn: number }>();
  view.exchanges.forEach(({ transcript, turn }, at) => {
    for (const m of transcript?.messages ?? []) for (const r of m.results) if (!out.has(r.id)) out.set(r.id, { result: r, at, turn });
  });
  return out;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function resultChecks(view: SessionView): CheckTally[] {
  const cut = new CheckTally('cut_tool_use_executed');
  const hallucinated = new CheckTally('hallucinated_tool_unanswered');
  const empty = new CheckTally('empty_tool_result');
  const oversized = new CheckTally('oversized_tool_result');
  const results = firstResults(view);
  for (const [id, { result, turn }] of results) {
    empty.look(id);
    oversized.look(id);
    if (result.text.trim() === '') empty.flag(id, { turn, toolUseId: id, detail: `turn ${turn}: the result of ${id} is empty text: the model cannot tell "no output" from a broken tool` });
    if (result.bytes > OVERSIZED_RESULT_BYTES) oversized.flag(id, { turn, toolUseId: id, bytes: result.bytes, detail: `turn ${turn}: the result of ${id} is ${kb(result.bytes)} (over ${kb(OVERSIZED_RESULT_BYTES)}), resent on every later turn` });
  }
  for (const call of view.issued.values()) {
    const answer = results.get(call.id);
    if (call.cut) {
      cut.look(call.id);
      if (answer && !looksLikeError(answer.result)) {
        cut.flag(call.id, { turn: answer.turn, toolUseId: call.id, detail: `turn ${answer.turn}: ${call.id} (${call.name}) was cut off at turn ${call.turn}, yet it got a result that is not an error ("${answer.result.text.slice(0, 60)}"): the cut-off call was executed` });
      }
      continue;
    }
    if (call.declared || isGenericTool(call.name)) continue;
    hallucinated.look(call.id);
    const later = view.exchanges.slice(call.at + 1).length > 0;
    if (answer && looksLikeError(answer.result)) continue;
    const why = answer
      ? `it was answered as a success${answer.result.isError === null ? ` (this wire has no is_error, and the text does not read as an error: "${answer.result.text.slice(0, 80)}")` : ''}`
      : later
        ? 'the next request has no result for it'
        : view.end.exitCode !== null && view.end.exitCode !== 0 && !view.end.timedOut
          ? `the harness crashed (exit ${view.end.exitCode})`
          : view.end.timedOut
            ? 'the harness went silent until the lab timeout'
            : 'the harness stopped without answering it';
    hallucinated.flag(call.id, { turn: call.turn, toolUseId: call.id, detail: `turn ${call.turn}: the model called ${call.name}, which the request did not declare, and ${why}` });
  }
  return [cut, hallucinated, empty, oversized];
}
