/**
 * The loopback mount (DESIGN §4): a real HTTP server on 127.0.0.1 that speaks
 * `/v1/messages` and `/v1/chat/completions`, so any harness in any language can
 * be pointed at the scripted engine, and so retries, aborts and cut streams run
 * over real sockets (msw hangs on cancelled bodies, DESIGN §7). Same sessions
 * and respond() as the msw mount; this file only carries out the transport plan.
 *
 * Routes: `/s/<id>/v1/...` for registered sessions; `/v1/...` for the default
 * script (one session per wire), as served by `faultline mock-server`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { ModelScript } from './script.js';
import { MockSession, type MockAnswer, type RecordedRequest } from './session.js';
import { wireError, type Wire } from './wire-errors.js';

export const LOOPBACK_HOST = '127.0.0.1';
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
  wire: Wire;
  /** Anthropic: `<origin>/s/<id>` (the SDK appends /v1/messages). OpenAI: `<origin>/s/<id>/v1`. */
  baseURL: string;
  /** The same session at the root routes: `<origin>` or `<origin>/v1`, with `headers` on every request. */
  rootBaseURL: string;
  headers: Readonly<Record<string, string>>;
  requests: RecordedRequest[];
  close(): void;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  register(script: z.input<typeof ModelScript>, options: { wire: Wire; now?: () => number }): LoopbackSessionHandle;
  /** The default sessions (when started with a script), by wire. */
  defaultSession(wire: Wire): MockSession | null;
  /** Connections: open now, the most open at once, accepted in all (a -j 1000 run must be held, not reset). */
  connections(): { open: number; peak: number; accepted: number };
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Script served at the root routes (`/v1/messages`, `/v1/chat/completions`). */
  script?: z.input<typeof ModelScript>;
  now?: () => number;
  /** Told about every answered request (the mock-server command logs them). */
  onRequest?(session: string, wire: Wire, record: RecordedRequest): void;
}

const ROUTES: ReadonlyArray<[string, Wire]> = [
  ['/v1/messages', 'anthropic'],
  ['/v1/chat/completions', 'openai'],
];

function route(url: string): { sid: string | null; wire: Wire } | null {
  const path = url.split('?')[0] ?? '';
  const scoped = /^\/s\/([A-Za-z0-9_-]+)(\/.*)$/.exec(path);
  const rest = scoped ? (scoped[2] as string) : path;
  const match = ROUTES.find(([suffix]) => rest === suffix);
  return match ? { sid: scoped ? (scoped[1] as string) : null, wire: match[1] } : null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Write the answer, honouring delays, a reset before headers and a cut after N chunks. Stops early if the client left. */
async function send(res: ServerResponse, { reply, transport }: MockAnswer): Promise<void> {
  if (transport.delayMs > 0) await sleep(transport.delayMs);
  if (res.destroyed) return;
  if (transport.reset) {
    res.socket?.resetAndDestroy();
    return;
  }
  const streamed = reply.chunks !== undefined && reply.headers['content-type']?.startsWith('text/event-stream') === true;
  const chunks = reply.chunks ?? [reply.body];
  // A JSON body always states its full length, so a cut one is a short body to the client, not a clean end.
  res.writeHead(reply.status, streamed ? reply.headers : { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) });
  res.flushHeaders();
  for (let i = 0; i < chunks.length; i++) {
    if (transport.cutAfterChunks !== null && i >= transport.cutAfterChunks) {
      // Give the kernel a moment to put the written bytes on the wire before the reset.
      await sleep(5);
      res.socket?.resetAndDestroy();
      return;
    }
    if (transport.chunkDelayMs > 0 && streamed) await sleep(transport.chunkDelayMs);
    if (res.destroyed) return;
    // Wait until the chunk is handed to the socket: a cut right after must not swallow what was already "sent".
    await new Promise<void>((resolve) => res.write(chunks[i] as string, () => resolve()));
  }
  res.end();
}

export async function startLoopbackServer(options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const sessions = new Map<string, MockSession>();
  const defaults = new Map<Wire, MockSession>();
  const defaultScript = options.script !== undefined ? ModelScript.parse(options.script) : null;
  let counter = 0;

  const sessionFor = (sid: string | null, wire: Wire): MockSession | null => {
    if (sid !== null) {
      const found = sessions.get(sid);
      return found && found.wire === wire ? found : null;
    }
    if (defaultScript === null) return null;
    let session = defaults.get(wire);
    if (!session) {
      session = new MockSession(`default-${wire}`, wire, defaultScript, options.now);
      defaults.set(wire, session);
    }
    return session;
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const target = req.method === 'POST' ? route(req.url ?? '') : null;
      const body = await readBody(req);
      if (!target) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route for ${req.method} ${req.url}`, type: 'not_found_error' } }));
        return;
      }
      const header = req.headers[SESSION_HEADER];
      const sid = target.sid ?? (typeof header === 'string' && header !== '' ? header : null);
      const session = sessionFor(sid, target.wire);
      if (!session) {
        const missing = wireError(target.wire, 404, `no ${target.wire} mock session is registered as ${sid ?? '(default)'}`);
        res.writeHead(missing.status, missing.headers);
        res.end(missing.body);
        return;
      }
      const answer = session.handle(body);
      const record = session.requests[session.requests.length - 1];
      if (record) options.onRequest?.(session.id, target.wire, record);
      await send(res, answer);
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
    register(script, { wire, now }) {
      const id = `l${++counter}`;
      const session = new MockSession(id, wire, ModelScript.parse(script), now ?? options.now);
      sessions.set(id, session);
      const root = `${origin}/s/${id}`;
      return {
        id,
        wire,
        baseURL: wire === 'anthropic' ? root : `${root}/v1`,
        rootBaseURL: wire === 'anthropic' ? origin : `${origin}/v1`,
        headers: { [SESSION_HEADER]: id },
        requests: session.requests,
        close: () => void sessions.delete(id),
      };
    },
    defaultSession: (wire) => defaults.get(wire) ?? null,
    connections: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
