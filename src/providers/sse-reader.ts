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

/** Reads until the body ends. An abort of `signal` cancels the read at once (the pending read resolves as done). */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | null = null;
  let data: string[] = [];
  const reader = body.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
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
