/**
 * The mount-neutral mock endpoint: wire request body -> {status, headers, body}.
 * msw handlers and the loopback HTTP server only adapt this. Order is the real
 * APIs': body shape, then protocol pairing (docs/architecture.md#the-mock-provider), then the model. Side
 * requests (side-requests.ts) and content-matched turns are answered without
 * taking a turn of the script.
 */
import { checkAnthropicBody } from './check-anthropic-body.js';
import { checkOpenAIBody } from './check-openai-body.js';
import { checkResponsesBody } from './check-responses-body.js';
import { decodeAnthropic } from './decode-anthropic.js';
import { mergeTurns } from './merge-turns.js';
import { parseBody } from './parse-body.js';
import { decodeOpenAI } from './decode-openai.js';
import { decodeResponses, resolveResponsesInput } from './decode-responses.js';
import { checkGeminiBody } from './check-gemini-body.js';
import { decodeGemini } from './decode-gemini.js';
import { encodeGeminiResponse, geminiWireReply } from './encode-gemini.js';
import { encodeGeminiStream } from './encode-gemini-stream.js';
import { geminiCallOf } from './gemini-call.js';
import { checkGeminiTurns } from './validate-gemini.js';
import type { DecodedRequest } from './decoded-request.js';
import { encodeAnthropicMessage } from './encode-anthropic.js';
import { encodeAnthropicStream } from './encode-anthropic-sse.js';
import { encodeOpenAICompletion } from './encode-openai.js';
import { encodeOpenAIStream } from './encode-openai-sse.js';
import { encodeResponsesObject, responsesOutput } from './encode-responses.js';
import { encodeResponsesStream } from './encode-responses-sse.js';
import { issuedWithId, runScript, turnsTaken, type EngineOptions, type MockReply } from './engine.js';
import { applyFault, framesBefore, NO_TRANSPORT_FAULT, type TransportPlan } from './fault-reply.js';
import { streamedCalls, type StreamedCall } from './stream-calls.js';
import type { JsonObject } from './json-shape.js';
import { ResponseStore } from './response-store.js';
import { cacheControlProblem, type PromptCacheLedger } from './prompt-cache.js';
import type { FaultSpec, ModelScript } from './script.js';
import { sideReply, type SideClassifier, type SideReason } from './side-requests.js';
import { checkAnthropicPairing, toolsRequired } from './validate-anthropic.js';
import { checkOpenAIPairing } from './validate-openai.js';
import { checkResponsesPairing } from './validate-responses.js';
import { anthropicError, openaiError, problemReply, wireError, type HttpReply, type Wire } from './wire-errors.js';

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
  /** Tells side requests from the conversation (lab, mock-server); without it every request is the conversation. */
  side?: SideClassifier;
  /** The Responses wire's server-side state (the session's); default a fresh one, so `previous_response_id` resolves nothing. */
  store?: ResponseStore;
  /** Anthropic: the session's prompt cache; replies without scripted usage report its reads and writes. */
  promptCache?: PromptCacheLedger;
  /** Maps the script's tool names onto the request's tools (the lab's generic names, see lab/tool-map.ts). */
  toolMap?: (tools: DecodedRequest['tools']) => EngineOptions['mapTool'];
  /**
   * Reads a tool result as an error also when its text says so (the lab: any
   * harness, and the OpenAI wires have no is_error), so script rules react
   * to errors the way the lab's checks read them. `declared`: the call it
   * answers named a tool the request declares.
   */
  errorResult?: ErrorResultRule;
  /** The model turns a conversation holds (see EngineOptions.turnsTaken); default: its assistant messages. */
  turnsTaken?: EngineOptions['turnsTaken'];
  /** The request path (query included): on the Gemini wire it names the model and whether to stream. */
  path?: string;
}

/** Decides whether one tool result reads as an error (the lab's rule, shared with its checks). */
export type ErrorResultRule = (result: { text: string; flagged: boolean; wire: Wire; declared: boolean }) => boolean;

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
  /** Why this request is not the scripted conversation, or null when it is. */
  side: SideReason | null;
  /** What the model said (tool ids as put on the wire), null when the request got an error before the model. */
  said: MockReply | null;
  /** The scripted fault carried out on this attempt, if any. */
  fault: FaultSpec | null;
  /** The request check's error text when the body was rejected as the real API would. */
  rejected: string | null;
  /** Responses wire: the id of the response object sent (what a later `previous_response_id` names). */
  responseId?: string;
  /** A stream broken midway: each call's arguments as far as they went out before the break. */
  streamedCalls?: StreamedCall[];
}

type Decoded = { ok: true; request: DecodedRequest; items?: JsonObject[] } | { ok: false; reply: HttpReply; message: string };

function rejected(wire: Wire, problem: { message: string; param?: string | null; code?: string | null }): Decoded {
  return { ok: false, reply: problemReply(wire, problem), message: problem.message };
}

function decode(wire: Wire, json: unknown, store: ResponseStore, path: string | undefined): Decoded {
  if (wire === 'gemini') {
    const problem = checkGeminiBody(json);
    if (problem !== null) return rejected(wire, problem);
    const body = json as JsonObject;
    const violation = checkGeminiTurns(body['contents'] as unknown[]);
    if (violation !== null) return rejected(wire, violation);
    return { ok: true, request: decodeGemini(body, geminiCallOf(path)) };
  }
  if (wire === 'anthropic') {
    const problem = checkAnthropicBody(json);
    if (problem !== null) return rejected(wire, { message: problem });
    const body = json as JsonObject;
    const messages = body['messages'] as unknown[];
    // One merge of the turns for the checks and the decoder.
    const merged = mergeTurns(messages);
    const violation = checkAnthropicPairing(messages, merged) ?? toolsRequired(messages, body['tools'], merged) ?? cacheControlProblem(body);
    if (violation !== null) return rejected(wire, { message: violation });
    return { ok: true, request: decodeAnthropic(body, merged) };
  }
  if (wire === 'openai') {
    const problem = checkOpenAIBody(json);
    if (problem !== null) return rejected(wire, problem);
    const body = json as JsonObject;
    const violation = checkOpenAIPairing(body['messages'] as unknown[]);
    if (violation !== null) return rejected(wire, { message: violation.message, param: violation.param });
    return { ok: true, request: decodeOpenAI(body) };
  }
  const problem = checkResponsesBody(json);
  if (problem !== null) return rejected(wire, problem);
  const body = json as JsonObject;
  const resolved = resolveResponsesInput(body, store);
  if (!resolved.ok) return rejected(wire, resolved.problem);
  const violation = checkResponsesPairing(resolved.items, store);
  if (violation !== null) return rejected(wire, violation);
  return { ok: true, request: decodeResponses(body, resolved.items), items: resolved.items };
}

const SSE = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
const JSON_TYPE = { 'content-type': 'application/json' };

/** The engine's reply on the wire: JSON, or SSE events when the request asked to stream. */
function encode(wire: Wire, reply: MockReply, request: DecodedRequest, ids: { sessionId: string; key: string; responseId: string }, now: () => number): HttpReply {
  const requestId = `req_mock_${ids.sessionId}_${ids.key}`;
  const out = (headers: Record<string, string>, json: unknown, chunks: string[] | null): HttpReply =>
    chunks === null ? { status: 200, headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(json) } : { status: 200, headers: { ...SSE, ...headers }, body: chunks.join(''), chunks };
  if (wire === 'anthropic') {
    const options = { model: request.model, id: `msg_mock_${ids.sessionId}_${ids.key}` };
    // The headers as literals (the same names and order as JSON_TYPE / SSE then request-id): the every-call path.
    if (!request.stream) return { status: 200, headers: { 'content-type': JSON_TYPE['content-type'], 'request-id': requestId }, body: JSON.stringify(encodeAnthropicMessage(reply, options)) };
    const chunks = encodeAnthropicStream(reply, options);
    return { status: 200, headers: { 'content-type': SSE['content-type'], 'cache-control': SSE['cache-control'], 'request-id': requestId }, body: chunks.join(''), chunks };
  }
  if (wire === 'gemini') {
    const options = { model: request.model, responseId: `mock_${ids.sessionId}_${ids.key}` };
    if (request.geminiStream === undefined) return out({ 'x-request-id': requestId }, encodeGeminiResponse(reply, options), null);
    const chunks = encodeGeminiStream(reply, options, request.geminiStream);
    const type = request.geminiStream === 'sse' ? { 'content-type': 'text/event-stream' } : { 'content-type': 'application/json; charset=UTF-8' };
    return { status: 200, headers: { ...type, 'x-request-id': requestId }, body: chunks.join(''), chunks };
  }
  if (wire === 'openai') {
    const options = { model: request.model, id: `chatcmpl-mock-${ids.sessionId}-${ids.key}`, created: Math.floor(now() / 1000) };
    if (!request.stream) return out({ 'x-request-id': requestId }, encodeOpenAICompletion(reply, options), null);
    return out({ 'x-request-id': requestId }, null, encodeOpenAIStream(reply, { ...options, includeUsage: request.streamUsage === true }));
  }
  const options = { model: request.model, id: ids.responseId, createdAt: Math.floor(now() / 1000), previousResponseId: request.previousResponseId ?? null, store: request.store !== false };
  return request.stream ? out({ 'x-request-id': requestId }, null, encodeResponsesStream(reply, options)) : out({ 'x-request-id': requestId }, encodeResponsesObject(reply, options), null);
}

/** A fault that breaks the response after content went out: its tool ids are this attempt's own, so a harness that runs them is seen. */
function breaksMidway(fault: FaultSpec | null): boolean {
  return fault !== null && (fault.cut_after_events !== undefined || fault.sse_error !== undefined || fault.stall_after_events !== undefined);
}

function brokenCalls(wire: Wire, fault: FaultSpec, chunks: readonly string[]): StreamedCall[] {
  const position = fault.sse_error?.after_events ?? fault.cut_after_events ?? fault.stall_after_events ?? 0;
  return streamedCalls(wire, chunks, framesBefore(wire, position, chunks));
}

function withAttemptIds(reply: MockReply, attempt: number): MockReply {
  // A `{call_id}` side effect follows the attempt's id: what the broken attempt's call leaves is its own.
  return { ...reply, content: reply.content.map((b) => (b.type === 'tool_use' ? issuedWithId(b, `${b.id}_cut${attempt}`) : b)) };
}

function markErrorResults(request: DecodedRequest, wire: Wire, rule: ErrorResultRule): void {
  const declared = new Set(request.tools.map((t) => t.name));
  const names = new Map<string, string>();
  for (const m of request.messages) {
    if (m.role === 'assistant') for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);
    if (m.role !== 'user') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result' || b.is_error) continue;
      const name = names.get(b.tool_use_id);
      if (rule({ text: b.content, flagged: false, wire, declared: name === undefined || declared.has(name) })) b.is_error = true;
    }
  }
}

export function respond(input: RespondInput): RespondOutput {
  const { wire, sessionId } = input;
  const now = input.now ?? Date.now;
  const store = input.store ?? new ResponseStore();
  const base = { request: null, turn: null, transport: NO_TRANSPORT_FAULT, attempt: 1, side: null, said: null, fault: null, rejected: null };
  const json = parseBody(input.bodyText);
  if (!json.ok) {
    const message = wire === 'anthropic' ? 'There was an issue with your request body: it is not valid JSON.' : wire === 'gemini' ? 'Invalid JSON payload received. Unexpected token.' : 'We could not parse the JSON body of your request.';
    return { ...base, reply: wire === 'anthropic' ? anthropicError(400, message) : wire === 'gemini' ? problemReply(wire, { message }) : openaiError(400, message), rejected: message };
  }
  const decoded = decode(wire, json.value, store, input.path);
  if (!decoded.ok) return { ...base, reply: decoded.reply, rejected: decoded.message };
  const request = decoded.request;
  if (input.errorResult) markErrorResults(request, wire, input.errorResult);
  const taken = (input.turnsTaken ?? turnsTaken)(request.messages);
  const turn = taken + 1;
  const mapTool = input.toolMap?.(request.tools);
  const engine: EngineOptions = { toolIdPrefix: wire === 'anthropic' ? 'toolu_mock' : 'call_mock', system: request.system, toolCount: request.tools.length, taken };
  if (mapTool) engine.mapTool = mapTool;
  if (input.turnsTaken) engine.turnsTaken = input.turnsTaken;
  const result = runScript(input.script, request.messages, engine);
  const matched = result.ok && result.reply.matched !== undefined;
  const classified: SideReason | null = matched ? 'matched' : (input.side?.classify(request) ?? null);
  // Past the script's end after a final answer, the real API would answer again (200): so does the lab, recorded apart.
  const side: SideReason | null = classified ?? (!result.ok && result.error.code === 'script_exhausted' && input.side?.ended() === true ? 'after_end' : null);
  const key = side === null ? String(turn) : matched ? `${turn}_k${(result as { reply: MockReply }).reply.matched}` : `${turn}_side`;
  const ids = { sessionId, key, responseId: `resp_mock_${sessionId}_${key}` };
  const named = wire === 'responses' ? { responseId: ids.responseId } : {};
  const remember = (said: MockReply) => {
    if (wire === 'responses' && decoded.items) store.save(ids.responseId, decoded.items, responsesOutput(said, ids.responseId), request.store !== false);
  };
  if (side !== null) {
    const said = matched ? (result as { reply: MockReply }).reply : sideReply(turn);
    remember(said);
    return { ...base, ...named, reply: encode(wire, said, request, ids, now), request, turn, side, said };
  }
  if (!result.ok) return { ...base, reply: wireError(wire, 400, result.error.message), request, turn, rejected: result.error.message };
  const cache = wire === 'anthropic' && input.promptCache && !result.reply.usageScripted ? input.promptCache.account(json.value as JsonObject, input.bodyText) : null;
  if (cache !== null) result.reply.usage = { ...cache, output_tokens: result.reply.usage.output_tokens };
  const attempt = input.nextAttempt?.(turn) ?? 1;
  // Gemini cannot carry a cut or malformed call: what is said is what its wire sends instead.
  if (wire === 'gemini') result.reply = geminiWireReply(result.reply);
  const fault = result.reply.fault;
  // `times` limits the fault to the first attempts at this turn: the retry then succeeds.
  const applies = fault !== null && (fault.times === undefined || attempt <= fault.times);
  const said = applies && breaksMidway(fault) ? withAttemptIds(result.reply, attempt) : result.reply;
  const normal = encode(wire, said, request, ids, now);
  if (!applies) {
    remember(said);
    // One literal, not spreads: this is the answer of nearly every call.
    const output: RespondOutput = { request, turn, transport: NO_TRANSPORT_FAULT, attempt, side: null, said, fault: null, rejected: null, reply: normal };
    if (wire === 'responses') output.responseId = ids.responseId;
    return output;
  }
  const broken = breaksMidway(fault) && request.stream && normal.chunks ? { streamedCalls: brokenCalls(wire, fault, normal.chunks) } : {};
  return { ...base, ...named, ...broken, ...applyFault(wire, fault, normal, request.stream), request, turn, attempt, said, fault };
}
