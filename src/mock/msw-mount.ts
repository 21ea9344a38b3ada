/**
 * The msw mount proper: the mock's msw handlers, one per wire, and
 * faultline's own msw `setupServer`. Its exported types are msw's, so it is
 * public only through `faultline/msw`, whose users have msw installed;
 * `faultline/testing` answers the same sessions in process without msw
 * (msw-hub.ts) and keeps msw out of its types.
 */
import { createRequire } from 'node:module';
import type { HttpHandler } from 'msw';
import type { SetupServer } from 'msw/node';
import { loadPeerSync, MSW } from '../providers/optional-peer.js';
import { hubRouter, MOCK_ORIGIN } from './hub-sessions.js';
import { wireError, type Wire } from './wire-errors.js';

/**
 * msw, loaded on first use: it is an optional peer dependency (only this
 * mount needs it; scenarios, the CLI and faultline/testing's fetch reach the mock without it), and the
 * API here is synchronous, so it is required, not imported. On Node with
 * require(esm) msw's `module-sync` export gives the very module a user's own
 * `import 'msw'` gets, so its handlers and server are the same objects.
 */
const requireHere = createRequire(import.meta.url);
let msw: { core: typeof import('msw'); node: typeof import('msw/node') } | undefined;
export function loadMsw(): NonNullable<typeof msw> {
  msw ??= loadPeerSync(MSW, () => ({ core: requireHere('msw') as typeof import('msw'), node: requireHere('msw/node') as typeof import('msw/node') }));
  return msw;
}

let server: SetupServer | null = null;

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
    const session = hubRouter.session(sid);
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
 * faultline's own msw server, intercepting the global fetch for the mock
 * origin (clients built without a `fetch` option reach it). Only for a
 * process with no msw server of its own: a second setupServer breaks the
 * first. Unmatched traffic is bypassed. Idempotent; `stopMockHub()` (or `closeMockServer()`) closes it.
 */
export function mountMockServer(): SetupServer {
  if (server) return server;
  const created = loadMsw().node.setupServer(...mockHandlers);
  created.listen({ onUnhandledRequest: 'bypass' });
  server = created;
  return created;
}

/** Close faultline's own msw server, if mounted (stopMockHub does, with the sessions). */
export function closeMockServer(): void {
  server?.close();
  server = null;
}
