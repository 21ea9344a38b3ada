/**
 * A minimal Server-Sent Events reader over a fetch body (WHATWG SSE framing:
 * `event:` / `data:` lines, blank line dispatches, `:` comments ignored). The
 * adapters read the raw stream themselves, rather than through the SDK's
 * iterator, because they must tell a clean end (`message_stop`, `[DONE]`) from
 * a stream that just stops, and the SDK iterator hides both.
 */
export interface SseMessage {
  /** `null` when the frame had no `event:` line (OpenAI). */
  event: string | null;
  data: string;
}

/** Thrown when no byte arrived for `idleTimeoutMs` (a stalled stream: the connection is open, nothing comes). */
export class StreamIdleError extends Error {
  readonly code = 'STREAM_IDLE';
  constructor(readonly idleMs: number) {
    super(`no stream data for ${idleMs} ms`);
    this.name = 'StreamIdleError';
  }
}

/**
 * Reads until the body ends. An abort of `signal` cancels the read at once
 * (the pending read resolves as done); `idleTimeoutMs` bounds the wait for each
 * next piece of data (the SDK's timeout only covers the wait for headers).
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal, idleTimeoutMs?: number): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | null = null;
  let data: string[] = [];
  const reader = body.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, idleTimeoutMs);
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // Keep a trailing `\r` back: it may be the first half of `\r\n`.
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      buffer = done ? '' : (lines.pop() ?? '');
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0 || event !== null) yield { event, data: data.join('\n') };
          event = null;
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, idleTimeoutMs: number | undefined): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  if (idleTimeoutMs === undefined) return reader.read();
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      // Reject before cancelling: the cancel resolves the pending read as `done`, which must not win the race.
      reject(new StreamIdleError(idleTimeoutMs));
      void reader.cancel().catch(() => undefined);
    }, idleTimeoutMs);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}
