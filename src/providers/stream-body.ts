/**
 * Drive an SSE body into an accumulator, turning transport failures into
 * classified errors: a user abort rejects with the signal's reason (not a
 * provider error), a dropped connection is `stream_interrupted` (retryable: the
 * whole request is sent again, the partial turn is discarded).
 */
import { streamInterrupted } from './classify-error.js';
import { readSse, StreamIdleError, type SseMessage } from './sse-reader.js';
import { ModelCallError } from './types.js';

export async function consumeSse(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
  onMessage: (message: SseMessage) => void,
  idleTimeoutMs?: number,
): Promise<void> {
  if (body === null) throw streamInterrupted('the streaming response had no body');
  // Errors of the handler (error events, our own bugs) pass through unchanged; only read failures are transport errors.
  let handlerError: { error: unknown } | null = null;
  try {
    for await (const message of readSse(body, signal, idleTimeoutMs)) {
      if (signal?.aborted) break;
      try {
        onMessage(message);
      } catch (error) {
        handlerError = { error };
        break;
      }
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof ModelCallError) throw error;
    if (error instanceof StreamIdleError) throw new ModelCallError('timeout', `the stream stalled: ${error.message}`, null, null, true);
    throw streamInterrupted(`the stream broke: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (signal?.aborted) throw signal.reason;
  if (handlerError !== null) {
    // Stop the download we no longer read.
    await body.cancel().catch(() => undefined);
    throw handlerError.error;
  }
}

export function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw streamInterrupted('a stream event was not valid JSON');
  }
}
