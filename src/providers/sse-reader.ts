/**
 * A Server-Sent Events reader over a fetch body. The framing (WHATWG SSE:
 * `event:` / `data:` lines, a blank line dispatches, `:` comments ignored, an
 * event without data dropped) is eventsource-parser's, which is linear in
 * the length of a line (a hand-split buffer was quadratic: 4 s for one 1 MiB
 * line). The adapters read the raw stream themselves, rather than through the SDK's
 * iterator, because they must tell a clean end (`message_stop`, `[DONE]`) from
 * a stream that just stops, and the SDK iterator hides both.
 */
import { createParser } from 'eventsource-parser';

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
  const ready: SseMessage[] = [];
  const parser = createParser({ onEvent: (m) => void ready.push({ event: m.event ?? null, data: m.data }) });
  const reader = body.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, idleTimeoutMs);
      // At the end, an event not closed by a blank line is dropped, as the spec says.
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      while (ready.length > 0) yield ready.shift()!;
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
