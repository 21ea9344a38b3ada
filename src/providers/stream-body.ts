/**
 * Drive an SSE body into an accumulator, turning transport failures into
 * classified errors: a user abort rejects with the signal's reason (not a
 * provider error), a dropped connection is `stream_interrupted` (retryable: the
 * whole request is sent again, the partial turn is discarded).
 */
import { streamInterrupted } from './classify-error.js';
import type { FirstByteTimer } from './first-byte.js';
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

/**
 * A streamed response read to its end into `accumulator` under the call's first-byte timer: each event stops the
 * timer's wait, and a failure while reading is mapped as the timer maps it (a first-byte timeout is retryable).
 */
export async function accumulateSse<T>(
  response: Response,
  signal: AbortSignal | undefined,
  firstByte: FirstByteTimer,
  accumulator: { feed(message: SseMessage): void; finish(): T },
  idleTimeoutMs?: number,
): Promise<T> {
  try {
    await consumeSse(response.body, signal, (message) => {
      firstByte.arrived();
      accumulator.feed(message);
    }, idleTimeoutMs);
  } catch (error) {
    throw firstByte.failure(error);
  }
  return accumulator.finish();
}

export function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw streamInterrupted('a stream event was not valid JSON');
  }
}
