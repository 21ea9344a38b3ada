/**
 * The mount-neutral mock endpoint: wire request body -> {status, headers, body}.
 * msw handlers and the loopback HTTP server (issue 5) only adapt this. Order is
 * the real APIs': body shape, then protocol pairing (DESIGN §4), then the model.
 */
import { checkAnthropicPairing } from './validate-anthropic.js';
import { checkOpenAIPairing } from './validate-openai.js';
import { decodeAnthropic, parseAnthropicBody } from './decode-anthropic.js';
import { decodeOpenAI, parseOpenAIBody } from './decode-openai.js';
import type { DecodedRequest } from './decoded-request.js';
import { encodeAnthropicMessage } from './encode-anthropic.js';
import { encodeOpenAICompletion } from './encode-openai.js';
import { runScript } from './engine.js';
import type { ModelScript } from './script.js';
import { anthropicError, openaiError, wireError, type HttpReply, type Wire } from './wire-errors.js';

export interface RespondInput {
  wire: Wire;
  bodyText: string;
  script: ModelScript;
  /** Used in deterministic response ids. */
  sessionId: string;
  now?: () => number;
}

export interface RespondOutput {
  reply: HttpReply;
  /** The neutral request, when the body could be decoded. */
  request: DecodedRequest | null;
  /** 1-based turn the request asked for, when decoded. */
  turn: number | null;
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

export function respond(input: RespondInput): RespondOutput {
  const { wire, sessionId } = input;
  const json = parseJson(input.bodyText);
  if (!json.ok) return { reply: wireError(wire, 400, 'The request body is not valid JSON.'), request: null, turn: null };
  const decoded = decode(wire, json.value);
  if (!decoded.ok) return { reply: decoded.reply, request: null, turn: null };
  const request = decoded.request;
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  // Seam for issue 5: a streaming request gets the same reply through the SSE encoders.
  if (request.stream) return { reply: wireError(wire, 400, 'the faultline mock does not stream yet (non-streaming JSON only)'), request, turn };
  const result = runScript(input.script, request.messages, { toolIdPrefix: wire === 'anthropic' ? 'toolu_mock' : 'call_mock' });
  if (!result.ok) return { reply: wireError(wire, 400, result.error.message), request, turn };
  const reply = result.reply;
  if (wire === 'anthropic') {
    const body = encodeAnthropicMessage(reply, { model: request.model, id: `msg_mock_${sessionId}_${reply.turn}` });
    return { reply: { status: 200, headers: { 'content-type': 'application/json', 'request-id': `req_mock_${sessionId}_${reply.turn}` }, body: JSON.stringify(body) }, request, turn };
  }
  const created = Math.floor((input.now ?? Date.now)() / 1000);
  const body = encodeOpenAICompletion(reply, { model: request.model, id: `chatcmpl-mock-${sessionId}-${reply.turn}`, created });
  return { reply: { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': `req_mock_${sessionId}_${reply.turn}` }, body: JSON.stringify(body) }, request, turn };
}
