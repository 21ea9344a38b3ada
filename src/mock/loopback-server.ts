/**
 * The loopback mount (docs/architecture.md#the-mock-provider): a real HTTP server on 127.0.0.1 that speaks
 * `/v1/messages`, `/v1/chat/completions` and `/v1/responses` (plus the side
 * routes of routes.ts), so any harness in any language can be pointed at the
 * scripted engine, and so retries, aborts and cut streams run over real
 * sockets (msw hangs on cancelled bodies, docs/architecture.md#dependency-notes). The routing and the
 * sessions are mock-router.ts's, shared with the in-process fetch
 * (memory-fetch.ts); this file only carries out the transport plan on a socket.
 *
 * Routes: `/s/<id>/v1/...` for registered sessions; `/v1/...` for the default
 * script (one session for every wire), as served by `faultline mock-server`.
 * It never listens beyond 127.0.0.1 and never forwards anything anywhere.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockRouter, SESSION_HEADER, type MockSessionHandle, type RegisterOptions, type RouterOptions } from './mock-router.js';
import type { ScriptInput } from './script.js';
import type { MockAnswer, MockSession } from './session.js';
import type { Wire } from './wire-errors.js';

export { SESSION_HEADER, type RegisterOptions };
export type LoopbackSessionHandle = MockSessionHandle;

export const LOOPBACK_HOST = '127.0.0.1';
/** How long a stalled response holds its connection before the mock drops it (a client with an idle timeout gives up sooner). */
export const STALL_HOLD_MS = 15_000;

/** Pending connections the listening socket queues (see listen below); FAULTLINE_MOCK_BACKLOG overrides it for tests. */
const LISTEN_BACKLOG = Number(process.env.FAULTLINE_MOCK_BACKLOG) > 0 ? Number(process.env.FAULTLINE_MOCK_BACKLOG) : 4096;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  register(script: ScriptInput, options: RegisterOptions): LoopbackSessionHandle;
  /** The default session (when started with a script): one for every wire. */
  defaultSession(wire?: Wire): MockSession | null;
  /** Connections: open now, the most open at once, accepted in all (a -j 1000 run must be held, not reset). */
  connections(): { open: number; peak: number; accepted: number };
  close(): Promise<void>;
}

export interface LoopbackOptions extends RouterOptions {
  /** 0 (default) picks a free port. */
  port?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The body as text (events, not `for await`: the async iterator cost more CPU than the rest of the read). */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.once('end', () => resolve(parts.length === 1 ? (parts[0] as Buffer).toString('utf8') : Buffer.concat(parts).toString('utf8')));
    req.once('error', reject);
  });
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
  const plain = transport.cutAfterChunks === null && transport.stallAfterChunks == null && (transport.chunkDelayMs === 0 || !streamed);
  if (plain) {
    // Nothing to do between chunks: headers and body leave in one write (a flush per SSE event cost a syscall each).
    if (streamed) {
      res.writeHead(reply.status, reply.headers);
      if (!head) res.write(reply.body);
      res.end();
    } else res.writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) }).end(head ? undefined : reply.body);
    return true;
  }
  const chunks = head ? [] : (reply.chunks ?? [reply.body]);
  // A JSON body always states its full length, so a cut one is a short body to the client, not a clean end.
  res.writeHead(reply.status, streamed ? reply.headers : { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) });
  res.flushHeaders();
  // Up to and including the end of the body: a stall or cut planned at or past the last chunk withholds the
  // clean end, as the in-process transport does (mock/memory-fetch.ts), so a short stream still stalls.
  for (let i = 0; i <= chunks.length; i++) {
    if (head) break;
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
    if (i === chunks.length) break;
    if (transport.chunkDelayMs > 0 && streamed) await sleep(transport.chunkDelayMs);
    if (res.destroyed) return false;
    // Wait until the chunk is handed to the socket: a cut right after must not swallow what was already "sent".
    await new Promise<void>((resolve) => res.write(chunks[i] as string, () => resolve()));
  }
  res.end();
  return true;
}

export async function startLoopbackServer(options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const router = new MockRouter('l', options);

  const server: Server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const answer = router.dispatch({ method, url: req.url ?? '/', headers: req.headers, bodyText: await readBody(req) });
      if ((await send(res, answer, method === 'HEAD')) && answer.record) answer.record.answeredAt = performance.now();
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
    register: (script, registerOptions) => router.register(origin, script, registerOptions),
    defaultSession: () => router.defaultSession,
    connections: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
