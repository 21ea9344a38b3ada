/**
 * Registered mock sessions for a user's own SDK clients: the official
 * clients really run in-process against the scripted engine. Every session
 * gets its own base-URL prefix (`<MOCK_ORIGIN>/s/<id>`), so many sessions run
 * concurrently.
 *
 * Nothing is intercepted globally: a second msw `setupServer` in one process
 * shares the first one's fetch interceptor, each reads the request body, and
 * a user's own server next to ours stops answering ("Body is unusable"). So
 * the sessions are answered three ways, the user's choice:
 *  - `session.fetch` / `mockFetch`: a fetch that answers the mock origin in
 *    process (memory-fetch.ts, the transport of `run --transport memory`:
 *    the same router, replies, statuses, headers, SSE bodies and transport
 *    faults as the loopback server) and passes every other URL to the
 *    global fetch. It needs no msw — give it to the SDK client (`fetch:`);
 *  - `mockHandlers`: add them to your own msw server (`server.use(...)`);
 *  - `mountMockServer()`: faultline's own setupServer, for a process with
 *    no msw server of its own.
 * The last two are msw's, in msw-mount.ts (`faultline/msw`); this file loads
 * no msw and names no msw type, so `faultline/testing` works without it.
 */
import type { z } from 'zod';
import type { Model } from '../providers/types.js';
import { hubRouter, MOCK_ORIGIN } from './hub-sessions.js';
import { memoryFetch } from './memory-fetch.js';
import { mockAdapter } from './mock-adapter.js';
import { closeMockServer } from './msw-mount.js';
import type { ModelScript } from './script.js';
import type { InjectedFailure, RecordedRequest } from './session.js';
import type { Wire } from './wire-errors.js';

export { MOCK_ORIGIN };

export interface MockSessionHandle {
  id: string;
  wire: Wire;
  /** Anthropic and Gemini: `<origin>/s/<id>` (the SDK appends /v1/messages, /v1beta/models/...). OpenAI wires: `<origin>/s/<id>/v1` (SDK appends /chat/completions or /responses). */
  baseURL: string;
  /** Every request this session received, decoded to the neutral form, in order. */
  requests: RecordedRequest[];
  /** A fetch for the SDK client (its `fetch` option) that reaches this mock without global interception. */
  fetch: typeof fetch;
  /** Test-only: answer the next request with an HTTP error. */
  failNext(failure: InjectedFailure): void;
  close(): void;
}

export interface RegisterOptions {
  wire: Wire;
  now?: () => number;
}

const answerInProcess = memoryFetch(hubRouter, MOCK_ORIGIN);

/** The URL a fetch call asks for, whatever form `input` has. */
const urlOf = (input: Parameters<typeof fetch>[0]): string => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/**
 * A fetch that answers the mock origin in process, with no global
 * interception and no msw, and sends every other request to the global fetch
 * (or a user's own msw server, if one intercepts it). A mocked connection
 * fault fails the way Node's fetch fails on a dropped connection.
 */
export const mockFetch: typeof fetch = (input, init) => (urlOf(input).startsWith(`${MOCK_ORIGIN}/`) ? answerInProcess(input, init) : globalThis.fetch(input, init));

/** Register a scripted conversation. The script is validated (throws on a malformed script: that is a bug in the suite). */
export function registerSession(script: z.input<typeof ModelScript>, options: RegisterOptions): MockSessionHandle {
  const routed = hubRouter.register(MOCK_ORIGIN, script, { wire: options.wire, ...(options.now ? { now: options.now } : {}) });
  const session = hubRouter.session(routed.id)!;
  return {
    id: routed.id,
    wire: options.wire,
    baseURL: routed.baseURL,
    requests: routed.requests,
    fetch: mockFetch,
    failNext: (failure) => session.failNext(failure),
    close: routed.close,
  };
}

/** The REAL adapter for the wire, pointed at a fresh mock session. */
export function mockModel(
  script: z.input<typeof ModelScript>,
  options: RegisterOptions & { model?: string; stream?: boolean; strictTools?: boolean },
): { model: Model; session: MockSessionHandle } {
  const session = registerSession(script, options);
  const model = mockAdapter({ wire: options.wire, baseURL: session.baseURL, fetch: mockFetch, model: options.model, stream: options.stream, strictTools: options.strictTools });
  return { model, session };
}

/** Stop faultline's own msw server (if mounted) and forget every session (test teardown). */
export function stopMockHub(): void {
  closeMockServer();
  hubRouter.closeAll();
}
