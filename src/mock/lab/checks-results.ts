/**
 * What the harness sends back for the calls the mock issued: never a result
 * for a call that was cut off (docs/harness-rules.md#stop-reasons, docs/harness-rules.md#state-before-init); an error result, not a crash
 * or silence, for a tool that does not exist (docs/harness-rules.md#unknown-tool); no empty text
 * (docs/harness-rules.md#empty-output) and no huge result (docs/harness-rules.md#truncate-and-spill).
 */
import { OVERSIZED_RESULT_BYTES } from './catalog.js';
import { CheckTally } from './check-result.js';
import { isGenericTool } from './tool-map.js';
import { looksLikeError, turnarounds, type SessionView } from './session-view.js';
import type { WireToolResult } from './transcript.js';

/** The first result for each id, with the exchange it came in. */
function firstResults(view: SessionView): Map<string, { result: WireToolResult; at: number; turn: number }> {
  const out = new Map<string, { result: WireToolResult; at: number; turn: number }>();
  view.exchanges.forEach(({ transcript, turn }, at) => {
    for (const m of transcript?.messages ?? []) for (const r of m.results) if (!out.has(r.id)) out.set(r.id, { result: r, at, turn });
  });
  return out;
}

const PATH_KEYS = ['path', 'file_path', 'filePath', 'filename', 'file', 'absolute_path', 'target_file'];

/** Why a call cannot have succeeded, from what the lab knows (a tool not declared, a file the task never created), or null. */
type Call = SessionView['issued'] extends Map<string, infer C> ? C : never;

function failsByConstruction(view: SessionView, call: Call): string | null {
  if (!call.declared) return 'a tool the request did not declare';
  if (call.cut || call.malformed) return null;
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(call.input) as Record<string, unknown>;
  } catch {
    return null;
  }
  const path = readPath(call.name, input);
  if (path === null || Object.keys(view.files).length === 0) return null;
  return fileOf(view, path) !== null ? null : `a read of ${path}, which the workspace does not have`;
}

function readPath(name: string, input: Record<string, unknown>): string | null {
  const key = PATH_KEYS.find((k) => typeof input[k] === 'string');
  return key === undefined || !/read|view|cat|open/i.test(name) ? null : (input[key] as string).replace(/^\.\//, '');
}

/** The content of the task's file a path names (relative or absolute), or null. */
function fileOf(view: SessionView, path: string): string | null {
  const name = Object.keys(view.files).find((f) => path === f || path.endsWith(`/${f}`));
  return name === undefined ? null : (view.files[name] as string);
}

/**
 * Whether a call ran, judged by what can be observed, in this order: the
 * side effect the task gave it (its marker file, side-effects.ts), decisive
 * both ways whatever its result says ("Error: (none)" beside a command that
 * ran; "Tool execution aborted" for one that did not, or did); then a read
 * whose result carries the file's content; only then the result's wording.
 * `how` says which of these decided. Null: nothing to judge (no result and
 * no side effect to look for).
 */
function ran(view: SessionView, call: Call, result: WireToolResult | undefined): { ran: boolean; how: string } | null {
  if (call.marker !== null && call.markerSeen !== undefined) {
    if (call.markerSeen === null) return { ran: false, how: `the workspace never gained ${call.marker}, the file only this call makes` };
    const when = call.markerSeen === 'end' ? "by the session's end" : `before conversation request ${call.markerSeen + 1} (turn ${view.exchanges[call.markerSeen]?.turn ?? '?'})`;
    return { ran: true, how: `the workspace gained ${call.marker}, the file only this call makes, ${when}${result ? '' : ', though no result was sent for it'}` };
  }
  if (result === undefined) return null;
  let input: Record<string, unknown> = {};
  try {
    input = JSON.parse(call.input) as Record<string, unknown>;
  } catch {
    // Malformed input: judged by the result alone.
  }
  const path = readPath(call.name, input);
  const content = path === null ? null : fileOf(view, path)?.trim();
  if (content) {
    if (result.text.includes(content)) return { ran: true, how: `its result carries the content of ${path}` };
    return { ran: false, how: `its result does not carry the content of ${path}` };
  }
  return { ran: !looksLikeError(result, call.declared), how: `judged by the result's wording only (no side effect to observe): it does not read as an error ("${result.text.slice(0, 60)}")` };
}

/** Words a result uses to say it is not the whole output: truncation, elision, or a page of a read by offset/limit. */
const NOTICE = /truncat|omitted|elided|more (?:lines|bytes|characters|chars)|remaining|offset|limit|showing|\bfirst \d+|\blines? \d+\s*(?:-|to|of)|of \d+ (?:lines|bytes)|\.\.\.|…|\bcut\b/i;

/**
 * A read of a task file whose result is less than half the file and says
 * nothing of the rest (undefined: not such a read; null: whole, or it says
 * so). A read the harness paged by offset/limit is not silent: its input or
 * its result says which part it is.
 */
function silentlyShortened(view: SessionView, call: Call, result: WireToolResult | undefined): string | null | undefined {
  if (call.cut || call.malformed || result === undefined || result.isError === true) return undefined;
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(call.input) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const path = readPath(call.name, input);
  const content = path === null ? null : fileOf(view, path);
  if (content === null || content === undefined || Buffer.byteLength(content) < 2_000) return undefined;
  const size = Buffer.byteLength(content);
  if (result.bytes * 2 >= size || NOTICE.test(result.text) || looksLikeError(result, call.declared)) return null;
  return `is ${result.bytes} bytes of the ${size}-byte ${path}`;
}

/** What was measured about a cut-off call: where its arguments stopped. */
function cutHow(view: SessionView, call: Call): string {
  const record = view.exchanges[call.at]?.record;
  if (record?.said?.cutToolInput && !record.fault) return `was cut off by max_tokens inside its arguments at turn ${call.turn}`;
  const streamed = record?.streamedCalls?.find((c) => c.id === call.id);
  const how = record?.fault?.sse_error ? 'an SSE error ended the stream' : 'the stream broke';
  if (call.argumentsWhole) return `had its arguments whole, but ${how} before the response ended at turn ${call.turn} (the response never finished; the retry issues new calls)`;
  if (streamed) return `had ${Buffer.byteLength(streamed.received)} of ${Buffer.byteLength(streamed.full)} argument bytes when ${how} at turn ${call.turn}`;
  return `was in a response that broke at turn ${call.turn} before its arguments were whole`;
}

/**
 * The lab stopped the harness at its --timeout while the answer that issued
 * a call was fresh (less than 5x the harness's slowest turnaround in this
 * session): it may have been about to answer, so silence is not judged. A
 * harness that sat on the call longer than that, or never turned an answer
 * around at all, is.
 */
function stoppedWhileFresh(view: SessionView, at: number): boolean {
  const answered = view.exchanges[at]?.record.answeredAt;
  const stopped = view.end.stoppedAt;
  const gaps = turnarounds(view);
  if (!view.end.timedOut || answered === undefined || stopped === null || stopped === undefined || gaps.length === 0) return false;
  return stopped - answered < 5 * Math.max(...gaps);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function resultChecks(view: SessionView): CheckTally[] {
  const cut = new CheckTally('cut_tool_use_executed');
  const hallucinated = new CheckTally('hallucinated_tool_unanswered');
  const empty = new CheckTally('empty_tool_result');
  const oversized = new CheckTally('oversized_tool_result');
  const malformed = new CheckTally('malformed_arguments_executed');
  const unflagged = new CheckTally('error_result_unflagged');
  const truncated = new CheckTally('silent_truncation');
  const results = firstResults(view);
  for (const [id, { result, turn }] of results) {
    empty.look(id);
    oversized.look(id);
    if (result.text.trim() === '') empty.flag(id, { turn, toolUseId: id, detail: `turn ${turn}: the result of ${id} is empty text: the model cannot tell "no output" from a broken tool` });
    if (result.bytes > OVERSIZED_RESULT_BYTES) oversized.flag(id, { turn, toolUseId: id, bytes: result.bytes, detail: `turn ${turn}: the result of ${id} is ${kb(result.bytes)} (over ${kb(OVERSIZED_RESULT_BYTES)}), resent on every later turn` });
  }
  for (const call of view.issued.values()) {
    const answer = results.get(call.id);
    const shortened = silentlyShortened(view, call, answer?.result);
    if (shortened !== undefined) {
      truncated.look(call.id);
      if (shortened !== null) truncated.flag(call.id, { turn: answer!.turn, toolUseId: call.id, bytes: answer!.result.bytes, detail: `turn ${answer!.turn}: the result of ${call.id} (${call.name}) ${shortened}, and says nothing of what it left out` });
    }
    const failing = failsByConstruction(view, call);
    if (answer && failing !== null && answer.result.isError !== null) {
      unflagged.look(call.id);
      if (answer.result.isError === false && looksLikeError(answer.result, call.declared)) unflagged.flag(call.id, { turn: answer.turn, toolUseId: call.id, detail: `turn ${answer.turn}: the result of ${call.id} (${call.name}, ${failing}) reports a failure ("${answer.result.text.slice(0, 60)}") without is_error` });
    }
    if (call.malformed && !call.cut) {
      malformed.look(call.id);
      const judged = ran(view, call, answer?.result);
      const turn = answer?.turn ?? call.turn;
      if (judged?.ran) malformed.flag(call.id, { turn, toolUseId: call.id, detail: `turn ${turn}: ${call.id} (${call.name}) came with arguments that do not parse (${JSON.stringify(call.input.slice(0, 40))}), yet it ran on input the harness made up or repaired: ${judged.how}` });
      continue;
    }
    if (call.cut) {
      cut.look(call.id);
      const judged = ran(view, call, answer?.result);
      const turn = answer?.turn ?? call.turn;
      if (judged?.ran) cut.flag(call.id, { turn, toolUseId: call.id, detail: `turn ${turn}: ${call.id} (${call.name}) ${cutHow(view, call)}, yet it ran: ${judged.how}` });
      continue;
    }
    // A generic script name the lab could not map onto the harness's tools is, to the harness, a tool that does not exist.
    if (call.declared) continue;
    const later = view.exchanges.slice(call.at + 1).length > 0;
    if (!answer && !later && stoppedWhileFresh(view, call.at)) continue;
    hallucinated.look(call.id);
    if (answer && looksLikeError(answer.result, false)) continue;
    const why = answer
      ? `it was answered as if it had run (${answer.result.isError === false ? 'is_error not set, and ' : ''}the text is empty, a placeholder or bare JSON: "${answer.result.text.slice(0, 80)}")`
      : later
        ? 'the next request has no result for it'
        : view.end.exitCode !== null && view.end.exitCode !== 0 && !view.end.timedOut
          ? `the harness crashed (exit ${view.end.exitCode})`
          : view.end.timedOut
            ? 'nothing answered it before the lab stopped the harness at its --timeout'
            : 'the harness stopped without answering it';
    const unmapped = isGenericTool(call.name) ? ` (the script's generic ${call.name}, which matched none of the harness's tools)` : '';
    hallucinated.flag(call.id, { turn: call.turn, toolUseId: call.id, detail: `turn ${call.turn}: the model called ${call.name}${unmapped}, which the request did not declare, and ${why}` });
  }
  return [cut, hallucinated, empty, oversized, malformed, unflagged, truncated];
}
