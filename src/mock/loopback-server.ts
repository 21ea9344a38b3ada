/**
 * The loopback mount (docs/architecture.md#the-mock-provider): a real HTTP server on 127.0.0.1 that speaks
 * `/v1/messages`, `/v1/chat/completions` and `/v1/responses` (plus the side
 * routes of routes.ts), so any harness in any language can be pointed at the
 * scripted engine, and so retries, aborts and cut streams run over real
 * sockets (msw hangs on cancelled bodies, docs/architecture.md#dependency-notes). Same sessions and
 * respond() as the msw mount; this file only carries out the transport plan.
 *
 * Routes: `/s/<id>/v1/...` for registered sessions; `/v1/...` for the default
 * script (one session for every wire), as served by `faultline mock-server`.
 * It never listens beyond 127.0.0.1 and never forwards anything anywhere.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { ModelScript } from './script.js';
import { routeOf } from './routes.js';
import { MockSession, type MockAnswer, type RecordedRequest, type SessionOptions } from './session.js';
import { wireError, type Wire } from './wire-errors.js';

export const LOOPBACK_HOST = '127.0.0.1';
/** How long a stalled response holds its connection before the mock drops it (a client with an idle timeout gives up sooner). */
export const STALL_HOLD_MS = 15_000;
/**
 * Routes a request at the root routes to a registered session. The suite
 * runner's models all share the server's root base URL and say their session
 * in this header, so they share one SDK client per wire (see
 * providers/adapter-options.ts sharedClient); `/s/<id>/...` routes stay for
 * harnesses that can only set a base URL.
 */
export const SESSION_HEADER = 'x-faultline-mock-session';

/** Pending connections the listening socket queues (see listen below); FAULTLINE_MOCK_BACKLOG overrides it for tests. */
const LISTEN_BACKLOG = Number(process.env.FAULTLINE_MOCK_BACKLOG) > 0 ? Number(process.env.FAULTLINE_MOCK_BACKLOG) : 4096;

export interface LoopbackSessionHandle {
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

export interface RegisterOptions extends SessionOptions {
  /** The wire to answer; null (the lab) answers every wire. */
  wire: Wire | null;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  register(script: z.input<typeof ModelScript>, options: RegisterOptions): LoopbackSessionHandle;
  /** The default session (when started with a script): one for every wire. */
  defaultSession(wire?: Wire): MockSession | null;
  /** Connections: open now, the most open at once, accepted in all (a -j 1000 run must be held, not reset). */
  connections(): { open: number; peak: number; accepted: number };
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Script served at the root routes (`/v1/messages`, `/v1/chat/completions`, `/v1/responses`). */
  script?: z.input<typeof ModelScript>;
  now?: () => number;
  /** Told about every answered request (the mock-server command logs them). */
  onRequest?(session: string, wire: Wire, record: RecordedRequest): void;
  /** More options of the default session (the mock-server maps the script's generic tool names, as the lab does). */
  defaultSession?: Pick<SessionOptions, 'toolMap' | 'errorResult' | 'prompt'>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Write the answer, honouring delays, a reset before headers and a cut after N chunks. False if the client left or the connection was cut. */
async function send(res: ServerResponse, { reply, transport }: MockAnswer, head: boolean): Promise<boolean> {
  if (transport.delayMs > 0) await sleep(transport.delayMs);
  if (res.destroyed) return false;
  if (transport.reset) {
    res.socket?.resetAndDestroy();
    return false;
  }
  const streamed = reply.chunks !== undefined && reply.headers['content-type']?.startsWith('text/event-stream') === true;
  const chunks = head ? [] : (reply.chunks ?? [reply.body]);
  // A JSON body always states its full length, so a cut one is a short body to the client, not a clean end.
  res.writeHead(reply.status, streamed ? reply.headers : { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) });
  res.flushHeaders();
  for (let i = 0; i < chunks.length; i++) {
    if (transport.stallAfterChunks != null && i >= transport.stallAfterChunks) {
      // A stalled upstream: no more bytes, the connection held open until the client gives up, or dropped after
      // STALL_HOLD_MS (so a client without an idle timeout costs a bounded wait, and its late retry shows it).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STALL_HOLD_MS);
        res.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      res.socket?.resetAndDestroy();
      return false;
    }
    if (transport.cutAfterChunks !== null && i >= transport.cutAfterChunks) {
      // Give the kernel a moment to put the written bytes on the wire before the reset.
      await sleep(5);
      res.socket?.resetAndDestroy();
      return false;
    }
    if (transport.chunkDelayMs > 0 && streamed) await sleep(transport.chunkDelayMs);
    if (res.destroyed) return false;
    // Wait until the chunk is handed to the socket: a cut right after must not swallow what was already "sent".
    await new Promise<void>((resolve) => res.write(chunks[i] as string, () => resolve()));
  }
  res.end();
  return true;
}

export async function startLoopbackServer(options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const sessions = new Map<string, MockSession>();
  const defaultScript = options.script !== undefined ? ModelScript.parse(options.script) : null;
  const onRecord = (id: string) => (record: RecordedRequest) => options.onRequest?.(id, record.wire, record);
  const defaultSession = defaultScript === null ? null : new MockSession('default', null, defaultScript, { ...options.defaultSession, now: options.now, classifySide: true, onRecord: onRecord('default') });
  let counter = 0;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const body = await readBody(req);
      const target = routeOf(method, url, req.headers);
      const header = req.headers[SESSION_HEADER];
      const sid = target.sid ?? (typeof header === 'string' && header !== '' ? header : null);
      const session = sid !== null ? (sessions.get(sid) ?? null) : defaultSession;
      if (!session || !session.accepts(target.wire)) {
        const missing = target.route?.kind === 'unknown_route' && target.sid === null
          ? wireError(target.wire, 404, `no route for ${method} ${url}`)
          : wireError(target.wire, 404, `no ${target.wire} mock session is registered as ${sid ?? '(default)'}`);
        res.writeHead(missing.status, missing.headers);
        res.end(missing.body);
        return;
      }
      const answer = session.call({ wire: target.wire, method, path: url, bodyText: body, headers: req.headers, ...(target.route ? { route: target.route } : {}) });
      if (await send(res, answer, method === 'HEAD')) answer.record.answeredAt = performance.now();
    })().catch((error: unknown) => {
      // A bug in the mock must not hang the client: answer 500 if we still can.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`faultline mock error: ${String(error)}`);
    });
  });
  const counts = { open: 0, peak: 0, accepted: 0 };
  server.on('connection', (socket) => {
    counts.accepted++;
    counts.peak = Math.max(counts.peak, ++counts.open);
    socket.once('close', () => void counts.open--);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The kernel's accept queue must hold a whole -j 1000 connecting at once: at Node's default of 511 the
    // overflow was reset (ECONNRESET) instead of queued. Linux caps it at net.core.somaxconn (4096 here).
    server.listen({ port: options.port ?? 0, host: LOOPBACK_HOST, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${LOOPBACK_HOST}:${port}`;

  return {
    origin,
    port,
    register(script, { wire, onRecord: own, ...rest }) {
      const id = `l${++counter}`;
      const told = onRecord(id);
      const session = new MockSession(id, wire, ModelScript.parse(script), {
        now: options.now,
        ...rest,
        onRecord: (record) => {
          own?.(record);
          told(record);
        },
      });
      sessions.set(id, session);
      const root = `${origin}/s/${id}`;
      const baseURLs = { anthropic: root, openai: `${root}/v1`, responses: `${root}/v1` };
      return {
        id,
        wire,
        baseURL: baseURLs[wire ?? 'anthropic'],
        baseURLs,
        rootBaseURL: wire === null || wire === 'anthropic' ? origin : `${origin}/v1`,
        headers: { [SESSION_HEADER]: id },
        requests: session.requests,
        close: () => void sessions.delete(id),
      };
    },
    defaultSession: () => defaultSession,
    connections: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
