/**
 * The in-process transport: a `fetch` for the official SDK clients (their
 * `fetch` client option) that hands each request to the mock router (the same
 * dispatch as the loopback HTTP server) and returns a real `Response`. The
 * SDKs' own request building, response parsing, SSE decoding and error
 * classes run unchanged; only the socket is gone, which cuts the CPU of a
 * mocked model call about fourfold.
 *
 * The transport plan keeps its meaning: a delay waits before the headers; a
 * reset rejects as Node's fetch does on a reset connection (TypeError "fetch
 * failed", cause ECONNRESET); a cut errors the body stream after N chunks as a
 * dropped socket does (TypeError "terminated"); a stall holds the body until
 * the caller aborts or STALL_HOLD_MS, then drops it; an abort rejects with
 * the signal's reason. The call's own signal may come in the init under
 * CALLER_SIGNAL instead of through the SDK (providers/caller-signal.ts): it is
 * followed beside the SDK's, the same way. Status and headers are the HTTP
 * path's (the same reply, with a JSON body's content-length and a date).
 */
import { callerSignalOf } from '../providers/caller-signal.js';
import { STALL_HOLD_MS } from './loopback-server.js';
import type { MockRouter } from './mock-router.js';
import type { MockAnswer, RecordedRequest } from './session.js';

/** The error Node's socket gives on a reset: what undici puts as the `cause` of its fetch errors. */
function resetError(): Error {
  return Object.assign(new Error('read ECONNRESET'), { errno: -104, code: 'ECONNRESET', syscall: 'read' });
}

/** Rejected before the headers: undici's TypeError for a connection that failed. */
const connectionFailed = () => new TypeError('fetch failed', { cause: resetError() });
/** A body cut midway: undici's TypeError for a socket closed under a response. */
const bodyTerminated = () => new TypeError('terminated', { cause: resetError() });
const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/** Wait `ms`, or reject with the abort reason when the signal fires first. */
function wait(ms: number, signal: AbortSignal | null): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

let dateSecond = -1;
let dateText = '';
/** The `date` header node:http adds, formatted once per second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

const encoder = new TextEncoder();

/** The body as a stream that carries out the plan's pacing, cut and stall, and follows the caller's abort. */
function plannedBody({ reply, transport }: MockAnswer, streamed: boolean, signals: Signals, done: () => void, whole: boolean): ReadableStream<Uint8Array> {
  const [signal, caller] = signals;
  // Nothing to pace or break: the events in one piece (a socket delivers them coalesced too), so the reader's
  // per-chunk work (a read, its promise, an idle timer, a decode) is done once instead of once per event.
  const chunks = whole ? [reply.body] : (reply.chunks ?? [reply.body]);
  let i = 0;
  let onAbort: (() => void) | null = null;
  // Cancelled by the reader: a pending pause (a stall holds 15 s) ends at once. The signal for the pauses is made at
  // the first pause only: most streamed bodies have none, and AbortSignal.any costs more than the rest of the body.
  let cancelled = false;
  let gone: AbortController | null = null;
  let pause: AbortSignal | null = null;
  const pauseSignal = (): AbortSignal => {
    if (pause === null) {
      gone = new AbortController();
      if (cancelled) gone.abort();
      const followed = [signal, caller, gone.signal].filter((s): s is AbortSignal => s !== null);
      pause = followed.length === 1 ? gone.signal : AbortSignal.any(followed);
    }
    return pause;
  };
  const stop = () => {
    if (onAbort) {
      signal?.removeEventListener('abort', onAbort);
      caller?.removeEventListener('abort', onAbort);
    }
    onAbort = null;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (!signal && !caller) return;
      // Aborting the request errors its body as fetch does (the SDKs cancel a stream this way).
      onAbort = () => {
        const fired = aborted(signals);
        if (fired) controller.error(abortReason(fired));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      caller?.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      try {
        if (transport.stallAfterChunks != null && i >= transport.stallAfterChunks) {
          // A stalled upstream: nothing more until the caller gives up, or the mock drops it after STALL_HOLD_MS.
          await wait(STALL_HOLD_MS, pauseSignal());
          stop();
          controller.error(bodyTerminated());
          return;
        }
        if (transport.cutAfterChunks !== null && i >= transport.cutAfterChunks) {
          stop();
          controller.error(bodyTerminated());
          return;
        }
        if (i >= chunks.length) {
          stop();
          controller.close();
          done();
          return;
        }
        if (transport.chunkDelayMs > 0 && streamed) await wait(transport.chunkDelayMs, pauseSignal());
        controller.enqueue(encoder.encode(chunks[i++] as string));
      } catch (error) {
        // An abort has errored the stream already, a cancel closed it: only another failure is the reader's to see.
        stop();
        if (!cancelled && aborted(signals) === null) controller.error(error);
      }
    },
    cancel() {
      stop();
      cancelled = true;
      gone?.abort();
    },
  });
}

/**
 * What the answer follows: the request's signal (the SDK's own, which its timeout aborts) and the caller's, when the
 * adapter gave it to the fetch instead of the SDK (providers/caller-signal.ts). Either aborting ends the call.
 */
type Signals = readonly [signal: AbortSignal | null, caller: AbortSignal | null];

function aborted([signal, caller]: Signals): AbortSignal | null {
  return signal?.aborted ? signal : caller?.aborted ? caller : null;
}

/** Carry out the answer's plan and build the Response the HTTP path would have given. */
export async function answerResponse(answer: MockAnswer & { record?: RecordedRequest }, head: boolean, signal: AbortSignal | null, caller: AbortSignal | null = null): Promise<Response> {
  const { reply, transport } = answer;
  const signals: Signals = [signal, caller];
  if (transport.delayMs > 0) await wait(transport.delayMs, signal && caller ? AbortSignal.any([signal, caller]) : (signal ?? caller));
  const fired = aborted(signals);
  if (fired) throw abortReason(fired);
  if (transport.reset) throw connectionFailed();
  const streamed = reply.chunks !== undefined && reply.headers['content-type']?.startsWith('text/event-stream') === true;
  // A JSON body always states its full length on the HTTP path too (a cut one is a short body, not a clean end).
  const headers: Record<string, string> = { ...reply.headers };
  if (!streamed) headers['content-length'] = String(Buffer.byteLength(reply.body));
  headers['date'] = httpDate();
  const init = { status: reply.status, headers };
  const plain = transport.cutAfterChunks === null && transport.stallAfterChunks == null && (transport.chunkDelayMs === 0 || !streamed);
  if (head || (plain && !streamed)) {
    // The common case: the whole body at once (Response makes its own stream of it), answered now.
    if (answer.record) answer.record.answeredAt = performance.now();
    return new Response(head ? null : reply.body, init);
  }
  const answered = () => {
    if (answer.record) answer.record.answeredAt = performance.now();
  };
  return new Response(plannedBody(answer, streamed, signals, answered, plain), init);
}

/**
 * A `Headers` read as the router's lower-case record, without copying it: the
 * router reads one or two names per call (the session header), and listing
 * a Headers sorts all of its ~15 entries. Listing the view (a lab that keeps
 * the headers) lists the Headers then.
 */
const headersView: ProxyHandler<{ headers: Headers }> = {
  get: (target, name) => headerOf(target.headers, name) ?? undefined,
  has: (target, name) => headerOf(target.headers, name) !== null,
  ownKeys: (target) => [...target.headers.keys()],
  getOwnPropertyDescriptor: (target, name) => {
    const value = headerOf(target.headers, name);
    return value === null ? undefined : { value, writable: false, enumerable: true, configurable: true };
  },
};

/** A header's value under its lower-case name (as in the record), or null: also for a name no header can have (Headers.get throws on those). */
function headerOf(headers: Headers, name: string | symbol): string | null {
  if (typeof name !== 'string' || name !== name.toLowerCase()) return null;
  try {
    return headers.get(name);
  } catch {
    return null;
  }
}

/** Lower-case header names and values from whatever `init.headers` the SDK passed. */
function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  if (headers instanceof Headers) return new Proxy({ headers }, headersView) as unknown as Record<string, string>;
  else if (Array.isArray(headers)) for (const [name, value] of headers as [string, string][]) out[name.toLowerCase()] = value;
  else for (const [name, value] of Object.entries(headers as Record<string, string | undefined>)) if (value !== undefined && value !== null) out[name.toLowerCase()] = String(value);
  return out;
}

/**
 * A fetch answered by `router` for URLs under `origin`; any other URL is
 * refused (the in-process mock reaches nothing else).
 */
export function memoryFetch(router: Pick<MockRouter, 'dispatch'>, origin: string): typeof fetch {
  const prefix = `${origin}/`;
  return async (input, init) => {
    let url: string;
    let method: string;
    let headers: Record<string, string>;
    let bodyText: string;
    let signal: AbortSignal | null;
    const caller = callerSignalOf(init);
    if (typeof input === 'string' && (init?.body === undefined || init.body === null || typeof init.body === 'string')) {
      // The SDKs' usual call: a URL string and a JSON string body, read without building a Request.
      url = input;
      method = (init?.method ?? 'GET').toUpperCase();
      headers = headerRecord(init?.headers);
      bodyText = (init?.body as string | null | undefined) ?? '';
      signal = init?.signal ?? null;
    } else {
      const request = new Request(input, init);
      url = request.url;
      method = request.method;
      headers = headerRecord(request.headers);
      bodyText = await request.text();
      signal = request.signal;
    }
    if (!url.startsWith(prefix)) throw new TypeError(`fetch failed: the in-process faultline mock serves ${origin} only, not ${url}`);
    const fired = aborted([signal, caller]);
    if (fired) throw abortReason(fired);
    const answer = router.dispatch({ method, url: url.slice(origin.length), headers, bodyText });
    return answerResponse(answer, method === 'HEAD', signal, caller);
  };
}
