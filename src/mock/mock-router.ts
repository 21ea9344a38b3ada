/**
 * The mock's request routing, shared by both transports: the registered
 * sessions, the root default session, and one dispatch from (method, URL,
 * headers, body) to the session's answer. The loopback HTTP server writes the
 * answer to a socket, the in-process fetch (memory-fetch.ts) turns it into a
 * `Response`: the same engine path answers both, only the carrying differs.
 */
import type { z } from 'zod';
import { NO_TRANSPORT_FAULT } from './fault-reply.js';
import { ModelScript, scriptOf, type ScriptInput } from './script.js';
import { routeOf } from './routes.js';
import { MockSession, type MockAnswer, type RecordedRequest, type SessionOptions } from './session.js';
import { wireError, type Wire } from './wire-errors.js';

/**
 * Routes a request at the root routes to a registered session. The suite
 * runner's models all share the root base URL and say their session in this
 * header, so they share one SDK client per wire (see
 * providers/adapter-options.ts sharedClient); `/s/<id>/...` routes stay for
 * harnesses that can only set a base URL.
 */
export const SESSION_HEADER = 'x-faultline-mock-session';

export interface RegisterOptions extends SessionOptions {
  /** The wire to answer; null (the lab) answers every wire. */
  wire: Wire | null;
}

export interface MockSessionHandle {
  id: string;
  /** The wire the session answers; null = every wire. */
  wire: Wire | null;
  /** Anthropic: `<origin>/s/<id>` (the SDK appends /v1/messages). OpenAI wires: `<origin>/s/<id>/v1`. */
  baseURL: string;
  /** Base URL per wire (the same root; OpenAI's include /v1). */
  baseURLs: Record<Wire, string>;
  /** The same session at the root routes: `<origin>` or `<origin>/v1`, with `headers` on every request. */
  rootBaseURL: string;
  headers: Readonly<Record<string, string>>;
  requests: RecordedRequest[];
  close(): void;
}

export interface RouterOptions {
  /** Script served at the root routes (`/v1/messages`, `/v1/chat/completions`, `/v1/responses`). */
  script?: z.input<typeof ModelScript>;
  now?: () => number;
  /** Told about every answered request (the mock-server command logs them). */
  onRequest?(session: string, wire: Wire, record: RecordedRequest): void;
  /** More options of the default session (the mock-server maps the script's generic tool names, as the lab does). */
  defaultSession?: Pick<SessionOptions, 'toolMap' | 'errorResult' | 'prompt'>;
}

export interface IncomingRequest {
  method: string;
  /** Path and query as requested (`/s/l1/v1/messages?beta=true`). */
  url: string;
  /** Lower-case names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  bodyText: string;
}

/** The answer, and the record to stamp `answeredAt` on once it is all sent (absent for an unrouted request). */
export type RoutedAnswer = MockAnswer & { record?: RecordedRequest };

export class MockRouter {
  private readonly sessions = new Map<string, MockSession>();
  readonly defaultSession: MockSession | null;
  private counter = 0;

  constructor(
    /** Session ids start with it (`l1`, `m1`), so a trace says which transport answered. */
    private readonly prefix: string,
    private readonly options: RouterOptions = {},
  ) {
    const script = options.script !== undefined ? ModelScript.parse(options.script) : null;
    this.defaultSession = script === null ? null : new MockSession('default', null, script, { ...options.defaultSession, now: options.now, classifySide: true, onRecord: this.told('default') });
  }

  private told(id: string) {
    return (record: RecordedRequest) => this.options.onRequest?.(id, record.wire, record);
  }

  /** Register a scripted conversation; `origin` is where the transport serves it (`http://127.0.0.1:<port>`). */
  register(origin: string, script: ScriptInput, { wire, onRecord: own, ...rest }: RegisterOptions): MockSessionHandle {
    const id = `${this.prefix}${++this.counter}`;
    const onRequest = this.options.onRequest;
    // Only the callbacks someone gave: a suite's session (neither) calls none per request.
    const onRecord =
      own && onRequest
        ? (record: RecordedRequest) => {
            own(record);
            onRequest(id, record.wire, record);
          }
        : own ?? (onRequest ? (record: RecordedRequest) => onRequest(id, record.wire, record) : undefined);
    const session = new MockSession(id, wire, scriptOf(script), { now: this.options.now, ...rest, ...(onRecord ? { onRecord } : {}) });
    this.sessions.set(id, session);
    const root = `${origin}/s/${id}`;
    const baseURLs = { anthropic: root, openai: `${root}/v1`, responses: `${root}/v1`, gemini: root };
    return {
      id,
      wire,
      baseURL: baseURLs[wire ?? 'anthropic'],
      baseURLs,
      rootBaseURL: wire === null || wire === 'anthropic' || wire === 'gemini' ? origin : `${origin}/v1`,
      headers: { [SESSION_HEADER]: id },
      requests: session.requests,
      close: () => void this.sessions.delete(id),
    };
  }

  /** Sessions registered and not yet closed (a run must end with none). */
  get size(): number {
    return this.sessions.size;
  }

  /** A registered session by id (the msw handlers of faultline/msw route to it themselves). */
  session(id: string): MockSession | undefined {
    return this.sessions.get(id);
  }

  /** Forget every registered session (test teardown: stopMockHub). */
  closeAll(): void {
    this.sessions.clear();
  }

  dispatch({ method, url, headers, bodyText }: IncomingRequest): RoutedAnswer {
    const target = routeOf(method, url, headers);
    const header = headers[SESSION_HEADER];
    const sid = target.sid ?? (typeof header === 'string' && header !== '' ? header : null);
    const session = sid !== null ? (this.sessions.get(sid) ?? null) : this.defaultSession;
    if (!session || !session.accepts(target.wire)) {
      const missing =
        target.route?.kind === 'unknown_route' && target.sid === null
          ? wireError(target.wire, 404, `no route for ${method} ${url}`)
          : wireError(target.wire, 404, `no ${target.wire} mock session is registered as ${sid ?? '(default)'}`);
      return { reply: missing, transport: NO_TRANSPORT_FAULT };
    }
    return session.call({ wire: target.wire, method, path: url, bodyText, headers, ...(target.route ? { route: target.route } : {}) });
  }
}
