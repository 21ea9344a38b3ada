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
 * SDK retries through msw hang (msw 2 on Node 20: cancelling a mocked body
 * never resolves): adapters use `maxRetries: 0`.
 */
import { createRequire } from 'node:module';
import type { HttpHandler } from 'msw';
import type { SetupServer } from 'msw/node';
import type { z } from 'zod';
import { loadPeerSync, MSW } from '../providers/optional-peer.js';
import type { Model } from '../providers/types.js';
import { mockAdapter } from './mock-adapter.js';
import { ModelScript } from './script.js';
import { MockSession, type InjectedFailure, type RecordedRequest } from './session.js';
import { wireError, type Wire } from './wire-errors.js';

/**
 * msw, loaded on first use: it is an optional peer dependency (only this
 * mount needs it; scenarios and the CLI reach the mock without it), and the
 * API here is synchronous, so it is required, not imported. On Node with
 * require(esm) msw's `module-sync` export gives the very module a user's own
 * `import 'msw'` gets, so its handlers and server are the same objects.
 */
const requireHere = createRequire(import.meta.url);
let msw: { core: typeof import('msw'); node: typeof import('msw/node') } | undefined;
function loadMsw(): NonNullable<typeof msw> {
  msw ??= loadPeerSync(MSW, () => ({ core: requireHere('msw') as typeof import('msw'), node: requireHere('msw/node') as typeof import('msw/node') }));
  return msw;
}

export const MOCK_ORIGIN = 'https://mock.faultline.invalid';

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

const sessions = new Map<string, MockSession>();
let server: SetupServer | null = null;
let counter = 0;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function pacedBody(chunks: string[], ms: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      for (const chunk of chunks) {
        await delay(ms);
        controller.enqueue(encoder.encode(chunk));
      }
      controller.close();
    },
  });
}

function mount(wire: Wire, path: string): HttpHandler {
  const { http, HttpResponse } = loadMsw().core;
  return http.post(`${MOCK_ORIGIN}/s/:sid${path}`, async ({ request, params }) => {
    const sid = String(params['sid']);
    const session = sessions.get(sid);
    if (!session || !session.accepts(wire)) {
      const missing = wireError(wire, 404, `no ${wire} mock session is registered as ${sid}`);
      return new HttpResponse(missing.body, { status: missing.status, headers: missing.headers });
    }
    const url = new URL(request.url);
    const { reply, transport } = session.handle(await request.text(), url.pathname + url.search);
    if (transport.delayMs > 0) await delay(transport.delayMs);
    // msw cannot drop a connection half-way: a reset or a cut is a network error here. Use the loopback server for those.
    if (transport.reset || transport.cutAfterChunks !== null) return HttpResponse.error();
    if (!reply.chunks || transport.chunkDelayMs === 0) return new HttpResponse(reply.body, { status: reply.status, headers: reply.headers });
    return new HttpResponse(pacedBody(reply.chunks, transport.chunkDelayMs), { status: reply.status, headers: reply.headers });
  });
}

const buildHandlers = (): HttpHandler[] => [
  mount('anthropic', '/v1/messages'),
  mount('openai', '/v1/chat/completions'),
  mount('responses', '/v1/responses'),
  // Gemini: `models/{model}:generateContent` and `:streamGenerateContent` (msw path params stop at ':', so the model and method are one segment; respond reads them from the path).
  mount('gemini', '/v1beta/models/:call'),
];

/**
 * The mock's msw handlers (every wire), for a user's own msw server:
 * `server.use(...mockHandlers)`. Filled on first use (spreading, indexing,
 * `length`), so importing faultline/testing loads no msw; without msw that
 * first use throws the MissingPeerError with the install command.
 */
export const mockHandlers: HttpHandler[] = lazyArray(buildHandlers);

function lazyArray<T>(build: () => T[]): T[] {
  const items: T[] = [];
  let filled = false;
  const fill = () => {
    if (filled) return;
    items.push(...build());
    filled = true;
  };
  return new Proxy(items, {
    get: (t, p) => (fill(), Reflect.get(t, p)),
    has: (t, p) => (fill(), Reflect.has(t, p)),
    ownKeys: (t) => (fill(), Reflect.ownKeys(t)),
    getOwnPropertyDescriptor: (t, p) => (fill(), Reflect.getOwnPropertyDescriptor(t, p)),
  });
}

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

/**
 * faultline's own msw server, intercepting the global fetch for the mock
 * origin (clients built without a `fetch` option reach it). Only for a
 * process with no msw server of its own: a second setupServer breaks the
 * first. Unmatched traffic is bypassed. Idempotent; `stopMockHub()` closes it.
 */
export function mountMockServer(): SetupServer {
  if (server) return server;
  const created = loadMsw().node.setupServer(...mockHandlers);
  created.listen({ onUnhandledRequest: 'bypass' });
  server = created;
  return created;
}

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
  server?.close();
  server = null;
  sessions.clear();
}
