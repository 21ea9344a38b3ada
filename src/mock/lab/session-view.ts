/**
 * One lab session as the checks see it: the conversation requests in arrival
 * order (side requests apart), each with its transcript, what the mock issued
 * (tool ids, which of them were cut off), and how the harness process ended.
 */
import type { MockToolUse } from '../engine.js';
import type { RecordedRequest } from '../session.js';
import type { FaultSpec } from '../script.js';
import { markerOf, markerSeen, type WorkspaceObservation } from './side-effects.js';
import { canonical, readTranscript, type Transcript, type WireMessage } from './transcript.js';

export interface Exchange {
  record: RecordedRequest;
  transcript: Transcript | null;
  /** The 1-based turn (0 when the body could not be read at all). */
  turn: number;
}

export interface IssuedCall {
  id: string;
  name: string;
  turn: number;
  /** The request it answered carried a tool of this name. */
  declared: boolean;
  /** Cut off: the last call of a max_tokens turn, or any call of an attempt whose stream broke. */
  cut: boolean;
  /** The exchange index of the response that issued it. */
  at: number;
  /** The arguments the mock sent, canonical JSON (or the raw text of malformed arguments). */
  input: string;
  /** Sent as raw arguments text that does not parse as a JSON object (a malformed call). */
  malformed: boolean;
  /** Cut off: its arguments reached the harness whole before the break (a broken stream after them), or not. */
  argumentsWhole: boolean;
  /** The workspace file only this call makes when it runs (named after its id, see side-effects.ts), or null. */
  marker: string | null;
  /**
   * Where the lab first saw the marker: the exchange index of the request it
   * was there for, 'end' (only at the session's end), null (never); undefined
   * when there is nothing to look for (no marker, or the workspace was not observed).
   */
  markerSeen?: number | 'end' | null;
}

export interface ProcessEnd {
  exitCode: number | null;
  /** The lab killed it at the timeout. */
  timedOut: boolean;
  /** The script's last turn was answered. */
  scriptCompleted: boolean;
  /** When the lab stopped the harness (performance.now() ms), or null. */
  stoppedAt?: number | null;
  /** A never-ending task: the lab stopped the harness once it went past this many turns (before its --timeout). */
  turnLimit?: number;
}

export interface SessionView {
  /** The files the task put in the workspace (relative path -> content): a read of another path fails by construction, and a result carrying a file's content shows the read ran. */
  files: Readonly<Record<string, string>>;
  /** The script's last turn repeats forever (a model that never stops calling tools). */
  endless: boolean;
  exchanges: Exchange[];
  side: RecordedRequest[];
  issued: Map<string, IssuedCall>;
  end: ProcessEnd;
}

/** A fault after which nothing the response said counts: the stream broke or an error came instead. */
export function brokeMidway(fault: FaultSpec | null): boolean {
  return fault !== null && (fault.cut_after_events !== undefined || fault.sse_error !== undefined || fault.stall_after_events !== undefined);
}

/**
 * The input as the harness got it. Raw arguments that do not parse reach it
 * as such on every wire but the Messages API's JSON (whose input is always an
 * object: the mock sends {} there, as a parse failure upstream would).
 */
function issuedInput(use: MockToolUse, record: RecordedRequest): { input: string; malformed: boolean } {
  if (use.rawArguments === undefined) return { input: canonical(use.input), malformed: false };
  if (parsesAsObject(use.rawArguments)) return { input: canonical(JSON.parse(use.rawArguments)), malformed: false };
  if (record.wire === 'anthropic' && record.request?.stream !== true) return { input: '{}', malformed: false };
  return { input: use.rawArguments, malformed: true };
}

function parsesAsObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The response reached the harness whole (200 and no transport fault). */
export function answeredWhole(record: RecordedRequest): boolean {
  return record.status === 200 && record.said !== null && !(record.fault !== null && (record.fault.reset === true || brokeMidway(record.fault)));
}

function saidMessages(record: RecordedRequest): WireMessage[] {
  const uses = (record.said?.content ?? []).flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.rawArguments ?? canonical(b.input) }] : []));
  // Stored server-side: the harness did not send it, so it has no raw form of its own.
  return [{ role: 'assistant', uses, results: [], text: '', kinds: 'T', raw: '' }];
}

/** The turn a request asks for, read from its own history (one per run of assistant messages): for requests the mock rejected before the engine. */
function turnOf(messages: readonly WireMessage[]): number {
  return messages.filter((m, i) => m.role === 'assistant' && messages[i - 1]?.role !== 'assistant').length + 1;
}

export function sessionView(
  records: readonly RecordedRequest[],
  end: ProcessEnd,
  task: { files?: Readonly<Record<string, string>>; endless?: boolean; workspace?: WorkspaceObservation<RecordedRequest> } = {},
): SessionView {
  const main = records.filter((r) => r.side === null && r.method === 'POST');
  // A Responses request continuing a stored response reads that response's conversation first.
  const stored = new Map<string, WireMessage[]>();
  const exchanges: Exchange[] = main.map((record) => {
    const transcript = readTranscript(record.wire, record.bodyText ?? '', (id) => stored.get(id) ?? null);
    if (record.responseId !== undefined && transcript) stored.set(record.responseId, [...transcript.messages, ...saidMessages(record)]);
    return { record, transcript, turn: record.turn ?? (transcript ? turnOf(transcript.messages) : 0) };
  });
  const issued = new Map<string, IssuedCall>();
  const observed = task.workspace;
  const listed = exchanges.map((e) => observed?.atRequest.get(e.record) ?? null);
  exchanges.forEach((exchange, at) => {
    const { record } = exchange;
    if (record.said === null || record.status >= 400) return;
    const uses = record.said.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    const declared = new Set((exchange.transcript?.tools ?? []).map((t) => t.name));
    uses.forEach((use, index) => {
      const cut = brokeMidway(record.fault) || (record.said!.cutToolInput && index === uses.length - 1);
      const whole = !cut || (brokeMidway(record.fault) && (record.streamedCalls?.find((c) => c.id === use.id)?.whole ?? false));
      if (issued.has(use.id)) return;
      const input = issuedInput(use, record);
      // The marker is read from what the mock sent in full (raw arguments included), whatever part of it reached the harness.
      const marker = markerOf(use.rawArguments ?? canonical(use.input), use.id, observed?.workspace ?? null);
      const seen = marker !== null && observed ? { markerSeen: markerSeen(listed, observed.atEnd, marker, at) } : {};
      issued.set(use.id, { id: use.id, name: use.name, turn: exchange.turn, declared: declared.has(use.name), cut, at, ...input, argumentsWhole: whole, marker, ...seen });
    });
  });
  return { files: task.files ?? {}, endless: task.endless ?? false, end: { ...end, stoppedAt: end.stoppedAt ?? null }, exchanges, side: records.filter((r) => !main.includes(r)), issued };
}

/**
 * The harness's own turnarounds on this machine, in this session: from each
 * whole answer with calls to the request of the next turn (parse, run the
 * tools, build the request), in ms. They scale with the machine's load, so
 * timing judgements compare with them rather than with absolute thresholds.
 */
export function turnarounds(view: SessionView): number[] {
  const gaps: number[] = [];
  view.exchanges.forEach((e, i) => {
    const next = view.exchanges[i + 1];
    if (!next || !answeredWhole(e.record) || e.record.answeredAt === undefined) return;
    if (!(e.record.said?.content.some((b) => b.type === 'tool_use') ?? false) || next.turn !== e.turn + 1) return;
    gaps.push(next.record.receivedAt - e.record.answeredAt);
  });
  return gaps;
}

/**
 * Tool results read as errors: Anthropic's is_error, or text that says so (the
 * OpenAI wires have no flag, and some harnesses answer with an error text
 * without setting it). Lenient on purpose: these checks ask whether the
 * harness answered at all, and wrongly, not how it flagged the answer.
 */
export const ERROR_TEXT =
  /\b(error|errors|failed|failure|not found|unknown|unavailable|no such|invalid|not (?:a )?valid|not available|does not exist|doesn't exist|not executed|cut off|truncated|exception|denied|unable|could not|cannot|not allowed|unrecognized|unsupported|must be|is required|are required|aborted|refused|rejected)\b/i;

/** What a harness that pretends a call succeeded sends back: nothing, a placeholder, or a bare JSON value. */
const SUCCESS_SHAPED = /^\s*(?:|null|undefined|none|nil|true|ok|okay|success|succeeded|done|completed?|\{[^]*\}|\[[^]*\])\s*[.!]?\s*$/i;

/**
 * Whether a tool result is an error answer. Flagged (Anthropic's is_error),
 * or its text says so; and an answer to a call of a tool the request does
 * not declare is an error answer by construction (the harness cannot have
 * run it), whatever its wording ("There is no tool named X. The tools are:
 * ..."), unless it looks like output pretending the call ran (empty text, a
 * placeholder, a bare JSON value). The mock's scripted reactions use the
 * same rule, so a rule branch on errors follows what the checks see.
 */
export function errorAnswer(result: { text: string; flagged: boolean; declared: boolean }): boolean {
  if (result.flagged || ERROR_TEXT.test(result.text)) return true;
  return !result.declared && !SUCCESS_SHAPED.test(result.text);
}
export function looksLikeError(result: { isError: boolean | null; text: string }, declared = true): boolean {
  return errorAnswer({ text: result.text, flagged: result.isError === true, declared });
}
