/**
 * One lab session as the checks see it: the conversation requests in arrival
 * order (side requests apart), each with its transcript, what the mock issued
 * (tool ids, which of them were cut off), and how the harness process ended.
 */
import type { RecordedRequest } from '../session.js';
import type { FaultSpec } from '../script.js';
import { readTranscript, type Transcript, type WireMessage } from './transcript.js';

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
}

export interface ProcessEnd {
  exitCode: number | null;
  /** The lab killed it at the timeout. */
  timedOut: boolean;
  /** The script's last turn was answered. */
  scriptCompleted: boolean;
}

export interface SessionView {
  exchanges: Exchange[];
  side: RecordedRequest[];
  issued: Map<string, IssuedCall>;
  end: ProcessEnd;
}

/** A fault after which nothing the response said counts: the stream broke or an error came instead. */
export function brokeMidway(fault: FaultSpec | null): boolean {
  return fault !== null && (fault.cut_after_events !== undefined || fault.sse_error !== undefined);
}

/** The response reached the harness whole (200 and no transport fault). */
export function answeredWhole(record: RecordedRequest): boolean {
  return record.status === 200 && record.said !== null && !(record.fault !== null && (record.fault.reset === true || brokeMidway(record.fault)));
}

function saidMessages(record: RecordedRequest): WireMessage[] {
  const uses = (record.said?.content ?? []).flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name }] : []));
  return [{ role: 'assistant', uses, results: [], text: '' }];
}

/** The turn a request asks for, read from its own history (one per run of assistant messages): for requests the mock rejected before the engine. */
function turnOf(messages: readonly WireMessage[]): number {
  return messages.filter((m, i) => m.role === 'assistant' && messages[i - 1]?.role !== 'assistant').length + 1;
}

export function sessionView(records: readonly RecordedRequest[], end: ProcessEnd): SessionView {
  const main = records.filter((r) => r.side === null && r.method === 'POST');
  // A Responses request continuing a stored response reads that response's conversation first.
  const stored = new Map<string, WireMessage[]>();
  const exchanges: Exchange[] = main.map((record) => {
    const transcript = readTranscript(record.wire, record.bodyText ?? '', (id) => stored.get(id) ?? null);
    if (record.responseId !== undefined && transcript) stored.set(record.responseId, [...transcript.messages, ...saidMessages(record)]);
    return { record, transcript, turn: record.turn ?? (transcript ? turnOf(transcript.messages) : 0) };
  });
  const issued = new Map<string, IssuedCall>();
  exchanges.forEach((exchange, at) => {
    const { record } = exchange;
    if (record.said === null || record.status >= 400) return;
    const uses = record.said.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    const declared = new Set((exchange.transcript?.tools ?? []).map((t) => t.name));
    uses.forEach((use, index) => {
      const cut = brokeMidway(record.fault) || (record.said!.cutToolInput && index === uses.length - 1);
      if (!issued.has(use.id)) issued.set(use.id, { id: use.id, name: use.name, turn: exchange.turn, declared: declared.has(use.name), cut, at });
    });
  });
  return { exchanges, side: records.filter((r) => !main.includes(r)), issued, end };
}

/**
 * Tool results read as errors: Anthropic's is_error, or text that says so (the
 * OpenAI wires have no flag, and some harnesses answer with an error text
 * without setting it). Lenient on purpose: these checks ask whether the
 * harness answered at all, and wrongly, not how it flagged the answer.
 */
export const ERROR_TEXT =
  /\b(error|errors|failed|failure|not found|unknown|unavailable|no such|invalid|not (?:a )?valid|not available|does not exist|doesn't exist|not executed|cut off|truncated|exception|denied|unable|could not|cannot|not allowed|unrecognized|unsupported)\b/i;
export function looksLikeError(result: { isError: boolean | null; text: string }): boolean {
  return result.isError === true || ERROR_TEXT.test(result.text);
}
