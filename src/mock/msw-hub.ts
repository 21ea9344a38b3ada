/**
 * The msw mount: the official SDK clients really run in-process against the
 * scripted engine. Every session gets its own base-URL prefix and the
 * handlers route by it, so many sessions run concurrently.
 *
 * Nothing is intercepted globally by default: a second msw `setupServer` in
 * one process shares the first one's fetch interceptor, each reads the
 * request body, and a user's own server next to ours stops answering ("Body
 * is unusable"). So the handlers are answered three ways, the user's choice:
 *  - `session.fetch` / `mockFetch`: a fetch that resolves the mock origin
 *    through the handlers (msw's getResponse) and passes every other URL to
 *    the global fetch — give it to the SDK client (`fetch:` option);
 *  - `mockHandlers`: add them to your own msw server (`server.use(...)`);
 *  - `mountMockServer()`: faultline's own setupServer, for a process with
 *    no msw server of its own.
 * The last two are msw's types and live in msw-mount.ts (`faultline/msw`);
 * this file's public types name no msw type, so `faultline/testing`
 * typechecks in a project without msw.
 * SDK retries through msw hang (msw 2 on Node 20: cancelling a mocked body
 * never resolves): adapters use `maxRetries: 0`.
 */
import type { z } from 'zod';
import type { Model } from '../providers/types.js';
import { hubSessions as sessions, MOCK_ORIGIN } from './hub-sessions.js';
import { mockAdapter } from './mock-adapter.js';
import { closeMockServer, loadMsw, mockHandlers } from './msw-mount.js';
import { ModelScript } from './script.js';
import { MockSession, type InjectedFailure, type RecordedRequest } from './session.js';
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

let counter = 0;

/**
 * A fetch that answers the mock origin through the handlers, with no global
 * interception, and sends every other request to the global fetch (or a user's
 * own msw server, if one intercepts it). A mocked connection fault fails the
 * way fetch fails on a dropped connection.
 */
export const mockFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.startsWith(`${MOCK_ORIGIN}/`)) return globalThis.fetch(input, init);
  const response = await loadMsw().core.getResponse(mockHandlers, request);
  if (!response) throw new TypeError(`fetch failed: no faultline mock route for ${request.method} ${request.url}`);
  if (response.type === 'error') throw new TypeError('fetch failed', { cause: new Error('the faultline mock dropped the connection (a reset or cut fault)') });
  return response;
};

/** Register a scripted conversation. The script is validated (throws on a malformed script: that is a bug in the suite). */
export function registerSession(script: z.input<typeof ModelScript>, options: RegisterOptions): MockSessionHandle {
  const id = `m${++counter}`;
  const session = new MockSession(id, options.wire, ModelScript.parse(script), { now: options.now });
  sessions.set(id, session);
  const root = `${MOCK_ORIGIN}/s/${id}`;
  return {
    id,
    wire: options.wire,
    baseURL: options.wire === 'anthropic' || options.wire === 'gemini' ? root : `${root}/v1`,
    requests: session.requests,
    fetch: mockFetch,
    failNext: (failure) => session.failNext(failure),
    close: () => void sessions.delete(id),
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
  sessions.clear();
}
