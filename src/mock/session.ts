/**
 * A registered mock conversation: its script, its wire (or every wire, for the
 * lab), every request it got, and how many attempts each turn has had (so a
 * fault with `times` fires on the first attempts only). Mount-neutral: msw and
 * the loopback server route to it and carry out its transport plan.
 */
import type { DecodedRequest } from './decoded-request.js';
import type { MockReply } from './engine.js';
import { NO_TRANSPORT_FAULT, type TransportPlan } from './fault-reply.js';
import { IssuedLedger } from './issued-ledger.js';
import type { StreamedCall } from './stream-calls.js';
import { respond, type RespondInput } from './respond.js';
import { PromptCacheLedger } from './prompt-cache.js';
import { ResponseStore } from './response-store.js';
import type { FaultSpec, ModelScript } from './script.js';
import { SideClassifier, type SideReason } from './side-requests.js';
import { sideRouteReply, type SideRoute } from './side-routes.js';
import { wireError, type HttpReply, type Wire } from './wire-errors.js';

export interface RecordedRequest {
  /** HTTP status the mock answered with. */
  status: number;
  /** 1-based turn the request asked for (null when the body could not be decoded). */
  turn: number | null;
  request: DecodedRequest | null;
  /** UTF-8 size of the body as received (to check what adapters report in describeRequest). */
  bodyBytes: number;
  /** 1-based attempt at this turn. */
  attempt: number;
  /** When the body had arrived (performance.now() ms), to measure back-off between attempts. */
  receivedAt: number;
  /** The wire the request came in on. */
  wire: Wire;
  method: string;
  /** Path as requested, query included (e.g. `/v1/messages?beta=true`). */
  path: string;
  /** Why the request is not the scripted conversation (answered, never consuming a turn); null when it is. */
  side: SideReason | null;
  /** What the model said, tool ids as sent (null for rejected requests and side routes). */
  said: MockReply | null;
  /** The scripted fault carried out on this attempt. */
  fault: FaultSpec | null;
  /** The request check's error text when the mock rejected the body as the real API would. */
  rejected: string | null;
  /** Kept when the session records bodies (the lab): the body as received and the headers minus secrets. */
  bodyText?: string;
  headers?: Record<string, string>;
  /** Set by the mount once the whole answer was written (performance.now() ms); absent if the connection broke first. */
  answeredAt?: number;
  /** Responses wire: the id of the response object the mock sent. */
  responseId?: string;
  /** A stream broken midway: each call's arguments as far as they went out (see stream-calls.ts). */
  streamedCalls?: StreamedCall[];
}

/** What a mount sends: the reply and what to do on the connection. */
export interface MockAnswer {
  reply: HttpReply;
  transport: TransportPlan;
}

/** Test-only escape hatch: answer the next request with this status. */
export interface InjectedFailure {
  status: number;
  headers?: Record<string, string>;
  message?: string;
}

export interface SessionOptions {
  now?: () => number;
  /** Tell side requests from the conversation (the lab and mock-server, where any harness calls). */
  classifySide?: boolean;
  /** The task's prompt, when known: a fresh conversation without it is a side request. */
  prompt?: string;
  /** Keep every body and its headers (minus secrets) on the records. */
  recordBodies?: boolean;
  /** Told about every recorded request. */
  onRecord?(record: RecordedRequest): void;
  /** Maps the script's tool names onto each request's tools (the lab). */
  toolMap?: RespondInput['toolMap'];
  /** Which tool results are errors to the script's rules (the lab, see RespondInput). */
  errorResult?: RespondInput['errorResult'];
}

/** Header names whose values never leave the mock: keys, tokens, cookies. */
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|cookie|set-cookie|x-goog-api-key|openai-organization|openai-project)$|(token|secret|key)/i;

export function publicHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = SECRET_HEADER.test(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export interface IncomingCall {
  wire: Wire;
  method?: string;
  path?: string;
  bodyText: string;
  headers?: Record<string, string | string[] | undefined>;
  /** A route that is not the conversation endpoint (count_tokens, models, probes). */
  route?: SideRoute;
}

export class MockSession {
  readonly requests: RecordedRequest[] = [];
  private readonly failures: InjectedFailure[] = [];
  private readonly attempts = new Map<number, number>();
  /** One store per session: `previous_response_id` resolves within the conversation it belongs to. */
  private readonly store = new ResponseStore();
  /** One prompt cache per session, as the API keeps one per organisation and prefix. */
  private readonly promptCache = new PromptCacheLedger();
  private readonly side: SideClassifier | undefined;
  /** What the mock issued (sessions that classify side requests: any harness calls, so turns are read against it). */
  readonly ledger: IssuedLedger | undefined;
  private readonly now: () => number;

  constructor(
    readonly id: string,
    /** The wire this session answers; null = every wire (the lab: the harness picks). */
    readonly wire: Wire | null,
    readonly script: ModelScript,
    private readonly options: SessionOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.ledger = options.classifySide ? new IssuedLedger() : undefined;
    this.side = options.classifySide ? new SideClassifier(script, options.prompt ?? null, this.ledger) : undefined;
  }

  accepts(wire: Wire): boolean {
    return this.wire === null || this.wire === wire;
  }

  failNext(failure: InjectedFailure): void {
    this.failures.push(failure);
  }

  /** A conversation request (the body as text) on this session's wire; `path` (query included) matters on the Gemini wire, where the URL names the model and the streaming. */
  handle(bodyText: string, path?: string): MockAnswer {
    if (this.wire === null) throw new Error('a session for every wire needs call() with the wire');
    return this.call({ wire: this.wire, bodyText, ...(path !== undefined ? { path } : {}) });
  }

  call(call: IncomingCall): MockAnswer & { record: RecordedRequest } {
    const receivedAt = performance.now();
    const method = call.method ?? 'POST';
    const path = call.path ?? '';
    const bodyBytes = Buffer.byteLength(call.bodyText, 'utf8');
    if (call.route !== undefined) {
      const out = sideRouteReply(call.wire, call.route, call.bodyText);
      const record = this.head(call, method, path, receivedAt, bodyBytes);
      Object.assign(record, { status: out.reply.status, turn: null, request: null, attempt: 1, side: out.side, said: null, fault: null, rejected: null });
      this.record(record);
      return { reply: out.reply, transport: NO_TRANSPORT_FAULT, record };
    }
    const input: RespondInput = { wire: call.wire, bodyText: call.bodyText, script: this.script, sessionId: this.id, now: this.now, nextAttempt: this.nextAttempt, side: this.side, store: this.store, promptCache: this.promptCache };
    if (call.path !== undefined) input.path = call.path;
    if (this.options.toolMap) input.toolMap = this.options.toolMap;
    if (this.options.errorResult) input.errorResult = this.options.errorResult;
    if (this.ledger) input.turnsTaken = this.ledgerTurns;
    const out = respond(input);
    const failure = this.failures.shift();
    const reply = failure ? wireError(call.wire, failure.status, failure.message ?? `injected mock failure (HTTP ${failure.status})`, failure.headers) : out.reply;
    const transport = failure ? NO_TRANSPORT_FAULT : out.transport;
    if (this.ledger && out.side === null && out.said !== null && reply.status === 200 && !failure) {
      if (out.fault?.cut_after_events !== undefined || out.fault?.sse_error !== undefined || out.fault?.stall_after_events !== undefined) this.ledger.breakOff(out.said);
      else if (out.fault?.reset !== true) this.ledger.issue(out.said);
    }
    // Built field by field in the order records always had (spreads of several objects cost more per call than the rest of the record).
    const record = this.head(call, method, path, receivedAt, bodyBytes);
    if (out.responseId !== undefined) record.responseId = out.responseId;
    if (out.streamedCalls) record.streamedCalls = out.streamedCalls;
    record.status = reply.status;
    record.turn = out.turn;
    record.request = out.request;
    record.attempt = out.attempt;
    record.side = out.side;
    record.said = out.said;
    record.fault = out.fault;
    record.rejected = out.rejected;
    this.record(record);
    return { reply, transport, record };
  }

  /** Counts a request as the next attempt at `turn` (one function per session, not one per call). */
  private readonly nextAttempt = (turn: number): number => {
    const attempt = (this.attempts.get(turn) ?? 0) + 1;
    this.attempts.set(turn, attempt);
    return attempt;
  };

  private readonly ledgerTurns = (messages: Parameters<IssuedLedger['turnsTaken']>[0]): number => this.ledger!.turnsTaken(messages);

  /** The record's first fields (when and what arrived); the caller adds the outcome. */
  private head(call: IncomingCall, method: string, path: string, receivedAt: number, bodyBytes: number): RecordedRequest {
    const record = { wire: call.wire, method, path, receivedAt, bodyBytes } as RecordedRequest;
    if (this.options.recordBodies) {
      record.bodyText = call.bodyText;
      record.headers = publicHeaders(call.headers ?? {});
    }
    return record;
  }

  private record(record: RecordedRequest): RecordedRequest {
    this.requests.push(record);
    this.options.onRecord?.(record);
    return record;
  }
}
