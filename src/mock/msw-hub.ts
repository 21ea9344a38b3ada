/**
 * The msw mount: the official SDK clients really run in-process against the
 * scripted engine. ONE setupServer per process, started lazily; every session
 * gets its own base-URL prefix and handlers route by it, so many sessions run
 * concurrently. Unmatched traffic is bypassed. Retries through msw hang
 * (DESIGN §7): adapters use `maxRetries: 0`.
 */
import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import type { z } from 'zod';
import type { Model } from '../providers/types.js';
import { mockAdapter } from './mock-adapter.js';
import { ModelScript } from './script.js';
import { MockSession, type InjectedFailure, type RecordedRequest } from './session.js';
import { wireError, type Wire } from './wire-errors.js';

export const MOCK_ORIGIN = 'https://mock.faultline.invalid';

export interface MockSessionHandle {
  id: string;
  wire: Wire;
  /** Anthropic: `<origin>/s/<id>` (SDK appends /v1/messages). OpenAI wires: `<origin>/s/<id>/v1` (SDK appends /chat/completions or /responses). */
  baseURL: string;
  /** Every request this session received, decoded to the neutral form, in order. */
  requests: RecordedRequest[];
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

function mount(wire: Wire, path: string) {
  return http.post(`${MOCK_ORIGIN}/s/:sid${path}`, async ({ request, params }) => {
    const sid = String(params['sid']);
    const session = sessions.get(sid);
    if (!session || !session.accepts(wire)) {
      const missing = wireError(wire, 404, `no ${wire} mock session is registered as ${sid}`);
      return new HttpResponse(missing.body, { status: missing.status, headers: missing.headers });
    }
    const { reply, transport } = session.handle(await request.text());
    if (transport.delayMs > 0) await delay(transport.delayMs);
    // msw cannot drop a connection half-way: a reset or a cut is a network error here. Use the loopback server for those.
    if (transport.reset || transport.cutAfterChunks !== null) return HttpResponse.error();
    if (!reply.chunks || transport.chunkDelayMs === 0) return new HttpResponse(reply.body, { status: reply.status, headers: reply.headers });
    return new HttpResponse(pacedBody(reply.chunks, transport.chunkDelayMs), { status: reply.status, headers: reply.headers });
  });
}

function ensureServer(): void {
  if (server) return;
  const created = setupServer(mount('anthropic', '/v1/messages'), mount('openai', '/v1/chat/completions'), mount('responses', '/v1/responses'));
  created.listen({ onUnhandledRequest: 'bypass' });
  server = created;
}

/** Register a scripted conversation. The script is validated (throws on a malformed script: that is a bug in the suite). */
export function registerSession(script: z.input<typeof ModelScript>, options: RegisterOptions): MockSessionHandle {
  ensureServer();
  const id = `m${++counter}`;
  const session = new MockSession(id, options.wire, ModelScript.parse(script), { now: options.now });
  sessions.set(id, session);
  const root = `${MOCK_ORIGIN}/s/${id}`;
  return {
    id,
    wire: options.wire,
    baseURL: options.wire === 'anthropic' ? root : `${root}/v1`,
    requests: session.requests,
    failNext: (failure) => session.failNext(failure),
    close: () => void sessions.delete(id),
  };
}

/** The REAL adapter for the wire, pointed at a fresh mock session. */
export function mockModel(
  script: z.input<typeof ModelScript>,
  options: RegisterOptions & { model?: string; stream?: boolean },
): { model: Model; session: MockSessionHandle } {
  const session = registerSession(script, options);
  // Resolve fetch per call, so the client sees msw's patched global even if it was patched after construction.
  const viaGlobal: typeof fetch = (input, init) => globalThis.fetch(input, init);
  const model = mockAdapter({ wire: options.wire, baseURL: session.baseURL, fetch: viaGlobal, model: options.model, stream: options.stream });
  return { model, session };
}

/** Stop the msw server and forget every session (test teardown). */
export function stopMockHub(): void {
  server?.close();
  server = null;
  sessions.clear();
}
