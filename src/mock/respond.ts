/**
 * The mount-neutral mock endpoint: wire request body -> {status, headers, body}.
 * msw handlers and the loopback HTTP server only adapt this. Order is
 * the real APIs': body shape, then protocol pairing (DESIGN §4), then the model.
 */
import { checkAnthropicPairing } from './validate-anthropic.js';
import { checkOpenAIPairing } from './validate-openai.js';
import { decodeAnthropic, parseAnthropicBody } from './decode-anthropic.js';
import { decodeOpenAI, parseOpenAIBody } from './decode-openai.js';
import type { DecodedRequest } from './decoded-request.js';
import { encodeAnthropicMessage } from './encode-anthropic.js';
import { encodeAnthropicStream } from './encode-anthropic-sse.js';
import { encodeOpenAICompletion } from './encode-openai.js';
import { encodeOpenAIStream } from './encode-openai-sse.js';
import { runScript, type MockReply } from './engine.js';
import { applyFault, NO_TRANSPORT_FAULT, type TransportPlan } from './fault-reply.js';
import type { ModelScript } from './script.js';
import { anthropicError, openaiError, wireError, type HttpReply, type Wire } from './wire-errors.js';

export interface RespondInput {
  wire: Wire;
  bodyText: string;
  script: ModelScript;
  /** Used in deterministic response ids. */
  sessionId: string;
  now?: () => number;
  /**
   * Counts this request as the next attempt at `turn` and returns its 1-based
   * number (the mount's session keeps the count; the engine is stateless).
   * Default: every request is attempt 1.
   */
  nextAttempt?: (turn: number) => number;
}

export interface RespondOutput {
  reply: HttpReply;
  /** The neutral request, when the body could be decoded. */
  request: DecodedRequest | null;
  /** 1-based turn the request asked for, when decoded. */
  turn: number | null;
  /** Connection-level behaviour the mount must carry out (delays, reset, cut). */
  transport: TransportPlan;
  /** Attempt number at this turn (1 when not counted). */
  attempt: number;
}

type Decoded = { ok: true; request: DecodedRequest } | { ok: false; reply: HttpReply };

function decode(wire: Wire, json: unknown): Decoded {
  if (wire === 'anthropic') {
    const body = parseAnthropicBody(json);
    if (!body.ok) return { ok: false, reply: anthropicError(400, body.message) };
    const violation = checkAnthropicPairing(body.value.messages);
    if (violation !== null) return { ok: false, reply: anthropicError(400, violation) };
    return { ok: true, request: decodeAnthropic(body.value) };
  }
  const body = parseOpenAIBody(json);
  if (!body.ok) return { ok: false, reply: openaiError(400, body.message, { param: body.path }) };
  const violation = checkOpenAIPairing(body.value.messages);
  if (violation !== null) return { ok: false, reply: openaiError(400, violation.message, { param: violation.param }) };
  return { ok: true, request: decodeOpenAI(body.value) };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The engine's reply on the wire: JSON, or SSE events when the request asked to stream. */
function encode(wire: Wire, reply: MockReply, request: DecodedRequest, sessionId: string, now: () => number): HttpReply {
  const requestId = `req_mock_${sessionId}_${reply.turn}`;
  const sse = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
  const json = { 'content-type': 'application/json' };
  if (wire === 'anthropic') {
    const options = { model: request.model, id: `msg_mock_${sessionId}_${reply.turn}` };
    const headers = { 'request-id': requestId };
    if (!request.stream) return { status: 200, headers: { ...json, ...headers }, body: JSON.stringify(encodeAnthropicMessage(reply, options)) };
    const chunks = encodeAnthropicStream(reply, options);
    return { status: 200, headers: { ...sse, ...headers }, body: chunks.join(''), chunks };
  }
  const options = { model: request.model, id: `chatcmpl-mock-${sessionId}-${reply.turn}`, created: Math.floor(now() / 1000) };
  const headers = { 'x-request-id': requestId };
  if (!request.stream) return { status: 200, headers: { ...json, ...headers }, body: JSON.stringify(encodeOpenAICompletion(reply, options)) };
  const chunks = encodeOpenAIStream(reply, { ...options, includeUsage: request.streamUsage === true });
  return { status: 200, headers: { ...sse, ...headers }, body: chunks.join(''), chunks };
}

export function respond(input: RespondInput): RespondOutput {
  const { wire, sessionId } = input;
  const plain = (reply: HttpReply, request: DecodedRequest | null = null, turn: number | null = null): RespondOutput => ({
    reply,
    request,
    turn,
    transport: NO_TRANSPORT_FAULT,
    attempt: 1,
  });
  const json = parseJson(input.bodyText);
  if (!json.ok) return plain(wireError(wire, 400, 'The request body is not valid JSON.'));
  const decoded = decode(wire, json.value);
  if (!decoded.ok) return plain(decoded.reply);
  const request = decoded.request;
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  const result = runScript(input.script, request.messages, { toolIdPrefix: wire === 'anthropic' ? 'toolu_mock' : 'call_mock' });
  if (!result.ok) return plain(wireError(wire, 400, result.error.message), request, turn);
  const attempt = input.nextAttempt?.(turn) ?? 1;
  const normal = encode(wire, result.reply, request, sessionId, input.now ?? Date.now);
  const fault = result.reply.fault;
  // `times` limits the fault to the first attempts at this turn: the retry then succeeds.
  if (fault === null || (fault.times !== undefined && attempt > fault.times)) return { ...plain(normal, request, turn), attempt };
  return { ...applyFault(wire, fault, normal, request.stream), request, turn, attempt };
}
