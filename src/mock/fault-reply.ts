/**
 * Turns a scripted turn's FaultSpec into what the mount sends: an error reply in
 * the wire's real envelope, or the normal reply with a transport plan (delays,
 * reset, cut, in-stream error). Mount-neutral: msw and the loopback server only
 * carry the plan out.
 */
import { anthropicStreamError } from './encode-anthropic-sse.js';
import { geminiErrorCode, geminiStreamError } from './encode-gemini-stream.js';
import { openaiStreamError } from './encode-openai-sse.js';
import { GEMINI_MESSAGES, geminiError } from './gemini-errors.js';
import { responsesStreamError } from './encode-responses-sse.js';
import type { EventPosition, FaultSpec } from './script.js';
import { framesInsideLastCall } from './stream-calls.js';
import { anthropicError, openaiError, type HttpReply, type Wire } from './wire-errors.js';

/** What the mount does on the connection besides sending the reply. */
export interface TransportPlan {
  /** Wait before the status line and headers. */
  delayMs: number;
  /** Wait before each chunk. */
  chunkDelayMs: number;
  /** Destroy the connection before any byte is sent. */
  reset: boolean;
  /** Destroy the connection after this many chunks of `reply.chunks`. */
  cutAfterChunks: number | null;
  /** Send this many chunks, then nothing (the connection stays open until the client leaves or the server closes). */
  stallAfterChunks?: number | null;
}

export const NO_TRANSPORT_FAULT: TransportPlan = { delayMs: 0, chunkDelayMs: 0, reset: false, cutAfterChunks: null };

/** The APIs' own wording for the common statuses (so logs and SDK messages look like live ones). */
const DEFAULT_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Invalid request.',
  401: 'invalid x-api-key',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'The requested resource could not be found.',
  413: 'Request exceeds the maximum allowed number of bytes.',
  429: 'Number of request tokens has exceeded your per-minute rate limit.',
  500: 'Internal server error',
  503: 'Service unavailable',
  529: 'Overloaded',
};

/** An in-stream error on a non-streaming request becomes the HTTP status the same error has there. */
const STATUS_OF_ANTHROPIC_TYPE: Readonly<Record<string, number>> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  invalid_request_error: 400,
};

export function errorReply(wire: Wire, status: number, fault: Pick<FaultSpec, 'error_type' | 'message' | 'body' | 'headers'>): HttpReply {
  if (wire === 'gemini') return geminiErrorReply(status, fault);
  const message = fault.message ?? DEFAULT_MESSAGES[status] ?? `HTTP ${status}`;
  const headers = fault.headers ?? {};
  const reply = wire === 'anthropic' ? anthropicError(status, message, fault.error_type, headers) : openaiError(status, message, fault.error_type ? { type: fault.error_type } : {}, headers);
  return fault.body !== undefined ? { ...reply, body: fault.body } : reply;
}

/**
 * Gemini has no 529: an overloaded model is 503 UNAVAILABLE there, so an
 * overload fault is put on this wire the way the API reports overload.
 */
function geminiErrorReply(requested: number, fault: Pick<FaultSpec, 'error_type' | 'message' | 'body' | 'headers'>): HttpReply {
  const status = requested === 529 ? 503 : requested;
  const message = fault.message ?? GEMINI_MESSAGES[status] ?? `HTTP ${status}`;
  const statusName = fault.error_type !== undefined ? geminiErrorCode(fault.error_type).status : undefined;
  const reply = geminiError(status, message, statusName, fault.headers ?? {});
  return fault.body !== undefined ? { ...reply, body: fault.body } : reply;
}

/** Frames to send before the fault: a count, or as many as end inside the last call's arguments (half the stream when there is no such call). */
export function framesBefore(wire: Wire, position: EventPosition, chunks: readonly string[]): number {
  if (typeof position === 'number') return Math.min(position, chunks.length);
  return framesInsideLastCall(wire, chunks) ?? Math.floor(chunks.length / 2);
}

/** Apply `fault` to the normal reply (`stream` says whether its chunks are SSE events). */
export function applyFault(wire: Wire, fault: FaultSpec, normal: HttpReply, stream: boolean): { reply: HttpReply; transport: TransportPlan } {
  const transport: TransportPlan = { ...NO_TRANSPORT_FAULT, delayMs: fault.delay_ms ?? 0, chunkDelayMs: fault.chunk_delay_ms ?? 0 };
  if (fault.status !== undefined) return { reply: errorReply(wire, fault.status, fault), transport };
  if (fault.reset) return { reply: normal, transport: { ...transport, reset: true } };
  const chunks = normal.chunks ?? [normal.body];
  if (fault.sse_error) {
    const type = fault.sse_error.type ?? (wire === 'anthropic' ? 'overloaded_error' : 'server_error');
    const message = fault.sse_error.message ?? (wire === 'gemini' ? (GEMINI_MESSAGES[geminiErrorCode(type).code] ?? 'An internal error has occurred.') : type === 'overloaded_error' ? 'Overloaded' : 'The server had an error while processing your request.');
    const nonStreamStatus = wire === 'anthropic' ? (STATUS_OF_ANTHROPIC_TYPE[type] ?? 500) : wire === 'gemini' ? geminiErrorCode(type).code : 500;
    if (!stream) return { reply: errorReply(wire, nonStreamStatus, { error_type: type, message }), transport };
    const before = framesBefore(wire, fault.sse_error.after_events, chunks);
    const frame = wire === 'anthropic' ? anthropicStreamError(type, message) : wire === 'openai' ? openaiStreamError(type, message) : wire === 'gemini' ? geminiStreamError(type, message, chunks[0]?.startsWith('[') ? 'json_array' : 'sse', before) : responsesStreamError(type, message);
    const cut = [...chunks.slice(0, before), frame];
    return { reply: { ...normal, body: cut.join(''), chunks: cut }, transport };
  }
  if (fault.stall_after_events !== undefined) {
    if (stream) return { reply: normal, transport: { ...transport, stallAfterChunks: framesBefore(wire, fault.stall_after_events, chunks) } };
    return { reply: { ...normal, chunks: [normal.body] }, transport: { ...transport, stallAfterChunks: 0 } };
  }
  if (fault.cut_after_events !== undefined) {
    if (stream) return { reply: normal, transport: { ...transport, cutAfterChunks: framesBefore(wire, fault.cut_after_events, chunks) } };
    // A JSON body cut in the middle: the client has the headers and half a body when the connection drops.
    const half = Math.floor(normal.body.length / 2);
    return { reply: { ...normal, chunks: [normal.body.slice(0, half), normal.body.slice(half)] }, transport: { ...transport, cutAfterChunks: 1 } };
  }
  return { reply: normal, transport };
}
